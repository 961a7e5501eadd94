// An object literal bound through `as const` or `satisfies T` is the named object it would be
// bare (`ACTIONS.run()`); `as T` of another type keeps the declared type (`Loose` has no method of
// ours). `new Kind()` with `Kind` a parameter is an instance of each class the callers pass, so a
// generic factory's result has its methods (`create(Admin).ban()`).
function start(): void {}
function halt(): void {}
function other(): void {}

type Controls = { stop: () => void };
interface Loose {
  go(): void;
}

export const ACTIONS = { run: start } as const;
export const controls = { stop: halt } satisfies Controls;
export const loose = { go: other } as Loose;

class Admin {
  ban(): void {}
}

function create<T>(Kind: new () => T): T {
  return new Kind();
}

export function main(): void {
  ACTIONS.run();
  controls.stop();
  loose.go();
  create(Admin).ban();
}
