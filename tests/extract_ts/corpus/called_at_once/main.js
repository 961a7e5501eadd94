// A function returned and called at once (`make()(x)`, `curry(a)(b)()`) or an IIFE is given the
// arguments of that call: its parameters hold them, anonymous or not; callbacks also pass down
// through the parameters of nested calls.
function target() {}
function other() {}

function make() {
  return function inner() {
    target();
  };
}
function makeArrow() {
  return (x) => x();
}
function curry(a) {
  return function (b) {
    return function () {
      a();
      b();
    };
  };
}

make()();
makeArrow()(other);
curry(target)(other)();

function outer(cb) {
  middle(cb);
}
function middle(fn) {
  inner2(fn);
}
function inner2(g) {
  g();
}
outer(target);

function run(cb) {
  return cb();
}
function wrap(h) {
  return () => run(h);
}
wrap(other)();

function makeNamed() {
  return function named(cb) {
    cb();
  };
}
makeNamed()(target);

(function (boot) {
  boot();
})(other);
