// A Map whose keys are all string literals: `m.get("a")` is the value stored under "a" only
// (by `set` or by the constructor's pairs). A value stored under a key we cannot read may be
// under any key, and `get` with a key we cannot read is any value.
function fa() {}
function fb() {}
function fc() {}
function fd() {}
function fe() {}

const m = new Map();
m.set("a", fa);
m.set("b", fb);
function byLiteral() {
  m.get("a")();
}

const routes = new Map([
  ["home", fc],
  ["about", fd],
]);
function fromPairs() {
  routes.get("about")();
}
function lookup(name) {
  routes.get(name)();
}

const mixed = new Map([["x", fa]]);
function register(key) {
  mixed.set(key, fe);
}
register("y");
mixed.set(String(1), fb);
function unknownKeys() {
  mixed.get("x")();
}

byLiteral();
fromPairs();
lookup("home");
unknownKeys();
