// A hand-written registry: values assigned under keys we cannot read (`handlers[type] = fn`, also
// on an object a field holds, `this.routes[path] = handler`) are what `o[k]()` calls, k no
// literal. Only as the callee of a call: `const h = handlers[type]` read as a value is not
// followed (nothing flows on from it), and data stored so (`cache[key] = 1`) is no function.
function onSave() {}
function onLoad() {}
function home() {}

const handlers = {};
const cache = {};

export function on(type, fn) {
  handlers[type] = fn;
}

export function emit(type) {
  handlers[type]();
}

export function lookup(type) {
  const h = handlers[type];
  h();
}

export function remember(key) {
  cache[key] = 1;
  return cache[key];
}

class Router {
  constructor() {
    this.routes = {};
  }
  add(path, handler) {
    this.routes[path] = handler;
  }
  dispatch(path) {
    return this.routes[path]();
  }
}

on("save", onSave);
on("load", onLoad);
const router = new Router();
router.add("/", home);
router.dispatch("/");
