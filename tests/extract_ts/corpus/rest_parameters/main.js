// Rest parameters: `function all(...fns)` holds the arguments from its position on, one array
// literal per call: iterating, indexing, slicing and destructuring it reach what the callers pass,
// also when a caller spreads its own rest parameter on.
function a() {}
function b() {}
function c() {}
function all(...fns) {
  fns.forEach((f) => f());
}
function each(...fns) {
  for (const f of fns) f();
}
function tail(first, ...rest) {
  first();
  rest.slice(1)[0]();
}
function second(...fns) {
  const [, ...more] = fns;
  more[0]();
}
function forward(...fns) {
  all(...fns);
}
all(a, b);
each(c);
tail(a, b, c);
second(a, b);
forward(c);
