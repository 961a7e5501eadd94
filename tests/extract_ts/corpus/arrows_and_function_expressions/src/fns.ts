export const add = (a: number, b: number) => a + b;
export const twice = function (x: number) {
  return add(x, x);
};
const named = function inner(x: number) {
  return twice(x);
};
export const compose = (x: number) => {
  const step = (y: number) => named(y);
  return [1, 2].map((z) => step(z)).concat([x].map(function (w) { return add(w, 1); }));
};
compose(1);
