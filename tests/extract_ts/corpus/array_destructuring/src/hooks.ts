// A function returning an array literal returns its elements by position: destructuring the
// result (`const [on, toggle] = useToggle()`) or indexing it (`pair()[1]`) gives that element.
import { useState } from "react";

export function open(): void {}
export function close(): void {}
export function flip(): void {}

export function useToggle() {
  const [on, setOn] = useState(false);
  const toggle = () => setOn(!on);
  return [on, toggle] as const;
}

export function useDialog(): [() => void, () => void] {
  return [open, close];
}

export function handlers() {
  return [open, , close];
}

export function withRest(rest: Array<() => void>) {
  return [...rest, flip];
}
