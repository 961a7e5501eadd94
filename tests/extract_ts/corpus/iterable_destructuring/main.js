// Array destructuring and Array.from iterate their value: for an instance or object of ours,
// its [Symbol.iterator] method is called (and a generator's yields are the elements: any of
// them, not by position). An array literal or an external value calls nothing of ours.
import { useState } from "react";

function onOpen() {}
function onClose() {}

class Handlers {
  *[Symbol.iterator]() {
    yield onOpen;
  }
}

const pair = {
  *[Symbol.iterator]() {
    yield onClose;
  },
};

export function first() {
  const [open] = new Handlers();
  open();
}

export function swap() {
  let close;
  [close] = pair;
  close();
}

export function all() {
  Array.from(new Handlers()).forEach((h) => h());
}

export function plain() {
  const [a, b] = [onOpen, onClose];
  a();
  const [state] = useState(0);
  return [b, state];
}
