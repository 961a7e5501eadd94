import { withOptions, destructured, useStore, Store } from "./options";

export function finished(): void {}
export function failed(): void {}

export function go(): void {
  withOptions({ onDone: finished });
  destructured({ onDone: finished, nested: { onFail: failed } });
  useStore(new Store());
}
