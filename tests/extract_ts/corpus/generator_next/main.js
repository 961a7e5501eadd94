// Generators yielding functions, stepped by hand: `it.next().value` and
// `const { value } = it.next()` are one of the values the generator yields (not told apart by
// position); an array has no `next`.
function a() {}
function b() {}
function* steps() {
  yield a;
  yield b;
}
function first() {
  const it = steps();
  it.next().value();
}
function destructured() {
  const { value } = steps().next();
  value();
}
function notAGenerator(xs) {
  xs.next().value();
}
first();
destructured();
notAGenerator([a]);
