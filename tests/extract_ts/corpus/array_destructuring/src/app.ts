import { useToggle, useDialog, handlers, withRest, flip, open } from "./hooks";

export function view(): void {
  const [on, toggle] = useToggle();
  toggle();
  const [show, hide] = useDialog();
  show();
  hide();
}

export function holes(): void {
  const [first, , third] = handlers();
  first();
  third();
  handlers()[2]();
}

export function afterSpread(): void {
  const [a, b] = withRest([]);
  a(); // a position after a spread is not known: no edge
  const [x, ...others] = [open, flip];
  x();
  others[0](); // a rest element: the elements after x
}

export function iterate(): void {
  for (const h of [open, flip]) {
    h();
  }
  const table = [open, flip];
  table.forEach((g) => g());
  table[1]();
}

export function swap(): void {
  let p = open;
  let q = flip;
  [p, q] = [q, p]; // the right side is read first: p is one of open (before) and flip
  p();
}
