// Map and Set registries: a function stored with `set` / `add` (or given to the constructor) is
// reached by `get` (whatever the key), `forEach`, `for...of` (a Map's entries are [key, value]),
// `values()`, a spread and `Array.from`; what is not stored is not reached.
function onStart() {}
function onStop() {}
function onReset() {}
function audit() {}
function trace() {}
function unused() {}

const handlers = new Map();
handlers.set("start", onStart);
handlers.set("stop", onStop);

function fire(name) {
  handlers.get(name)();
}

function fireAll() {
  for (const [, fn] of handlers) fn();
  handlers.forEach((fn) => fn());
}

function literalMap() {
  const table = new Map([
    ["reset", onReset],
    ["audit", audit],
  ]);
  table.get("reset")();
  for (const fn of table.values()) fn();
}

function sets() {
  const hooks = new Set([audit]);
  hooks.add(trace);
  hooks.forEach((h) => h());
  new Set([onStart, onStop]).forEach((h) => h());
  Array.from(new Set([onReset])).forEach((h) => h());
  for (const h of [...hooks]) h();
}

function pairs() {
  for (const [, fn] of [["a", trace]]) fn();
}

fire("start");
fireAll();
literalMap();
sets();
pairs();
unused;

function mapped() {
  Array.from(new Set([audit]), (f) => f).forEach((g) => g());
}
mapped();

class Bus {
  constructor() {
    this.handlers = new Map();
    this.hooks = new Set();
  }
  on(name, fn) {
    this.handlers.set(name, fn);
  }
  use(fn) {
    this.hooks.add(fn);
  }
  emit(name) {
    this.handlers.get(name)();
    this.hooks.forEach((h) => h());
  }
}
const bus = new Bus();
bus.on("stop", onStop);
bus.use(trace);
bus.emit("stop");
