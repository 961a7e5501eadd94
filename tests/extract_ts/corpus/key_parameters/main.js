// A key passed as a parameter: `o[k]()` in a function whose callers pass string literals for
// `k` reaches the members they name (of a parameter's object, an object of the file or an
// instance); a key a caller computes names nothing.
const handlers = {
  start() {},
  stop() {},
  reset() {},
};
class Player {
  play() {}
  pause() {}
}
function call(o, k) {
  o[k]();
}
function pick(table, name) {
  return table[name];
}
function dispatch(action) {
  handlers[action]();
}
function invoke(p, method) {
  p[method]();
}
function unknown(k) {
  handlers[k]();
}
call(handlers, "start");
pick(handlers, "stop")();
dispatch("start");
dispatch("reset");
invoke(new Player(), "pause");
unknown(String(Date.now()));
