// Members keyed by symbols imported from another file (`[kRun]() {}`), called through the same
// imported names, here and from other files (`this[kRun]()`, `task[kStop]()`).
import { kRun, kStop as stopKey } from "./symbols";

function audit(): void {}
function cleanup(): void {}

export class Task {
  [kRun](): void {
    audit();
  }
  [stopKey](): void {
    cleanup();
  }
  start(): void {
    this[kRun]();
  }
}

export const hooks = {
  [kRun]: audit,
};
