import { Component, Input, sealed } from "./decorators";
@Component({ selector: "app-widget" })
@sealed
export class Widget {
  @Input() label = "";
  show() {
    return this.label;
  }
}
