// Rest elements keep the remaining elements by position, `slice` of a known array literal
// keeps its elements from the start index, and a spread of a known literal puts its elements
// in place (in array literals and in call arguments).
function a() {}
function b() {}
function c() {}
function d() {}

const [first, ...rest] = [a, b, c];
first();
rest[0]();
rest[1]();

function restOfRest() {
  const [, ...others] = [a, b, c];
  const [x, ...tail] = others;
  x();
  tail[0]();
}

function sliced() {
  const fns = [a, b, c];
  const fromOne = fns.slice(1);
  fromOne[0]();
  fns.slice(1, 2)[0]();
  fns.slice(2).forEach((f) => f());
}

function spreadIntoArray() {
  const head = [a, b];
  const all = [...head, c, ...[d]];
  all[2]();
  all[3]();
  const [, second] = all;
  second();
}

function callThird(x, y, z) {
  z();
}

function spreadIntoCall() {
  const args = [a, b, c];
  callThird(...args);
  callThird(d, ...[b, a]);
}

function unknownAfterSpread(xs) {
  const ys = [...xs, a];
  ys[1](); // xs is of unknown length: no edge
}

restOfRest();
sliced();
spreadIntoArray();
spreadIntoCall();
