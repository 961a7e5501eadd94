// The arguments given through `f.call(t, x)`, `f.apply(t, [x])`, `f.bind(t, x)` (bound first
// arguments) and `Reflect.apply(f, t, [x])` are f's parameters, by position, as a plain call's
// are; `Reflect.apply` also gives f its `this`, and `f.apply(this, arguments)` passes on the
// caller's own arguments (`forward(onError)` reaches `guard`'s `fallback`).
function onOpen() {}
function onClose() {}
function onError() {}
function onRetry() {}

function listen(event, handler) {
  handler();
}

function guard(fallback) {
  fallback();
}

function forward() {
  return guard.apply(this, arguments);
}

const socket = {
  report() {},
};

function fail(cause) {
  this.report();
  cause();
}

export function wire() {
  listen.call(null, "open", onOpen);
  listen.apply(null, ["close", onClose]);
  const retry = listen.bind(null, "retry", onRetry);
  retry();
  Reflect.apply(fail, socket, [onError]);
  forward(onError);
}
