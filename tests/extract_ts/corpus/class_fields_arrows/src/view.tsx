import { track } from "./analytics";
export class View {
  count = 0;
  onClick = () => {
    this.increment();
    track("click");
  };
  handlers = {
    hover: () => this.onClick(),
  };
  increment() {
    this.count += 1;
  }
}
