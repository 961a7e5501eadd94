// A variable holds each value assigned to it; null, undefined and primitive literals are never
// functions of ours, so they drop out; one value we cannot name makes the variable unknown.
declare function load(): () => void;

export function f(): void {}
export function g(): void {}

export function declaredThenAssigned(): void {
  let h;
  h = f;
  h();
}

export function numberThenFunction(): void {
  let a: any = 1;
  a = g;
  a();
}

export function eitherBranch(c: boolean): void {
  let fn = null;
  if (c) {
    fn = f;
  } else {
    fn = g;
  }
  fn();
}

export function stringOr(): void {
  const pick = ("" || f) as () => void;
  pick();
}

export function unknownToo(): void {
  let k = f;
  k = load();
  k(); // one assignment we cannot name: no edge
}
