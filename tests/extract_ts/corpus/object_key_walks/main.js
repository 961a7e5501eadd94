// `o[k]()` with `k` walked over the keys of an object literal of ours calls each of its members:
// `Object.keys` / `Object.getOwnPropertyNames` / `Reflect.ownKeys` lists (also held in a variable),
// `for (var k in o)`, and an object literal assigned to a field in the constructor (`this.hooks =
// { ... }`, named like a field initialiser's). Data members (`retries: 3`) are not functions: no
// edge.
function compile() {}
function minify() {}
function report() {}

const steps = { compile, minify, retries: 3 };

function runAll() {
  Object.keys(steps).forEach(function (name) {
    if (typeof steps[name] === "function") steps[name]();
  });
}

function runOwn() {
  for (var name in steps) {
    if (Object.prototype.hasOwnProperty.call(steps, name)) {
      const step = steps[name];
      step();
    }
  }
}

function runNames() {
  const names = Object.getOwnPropertyNames(steps);
  for (const name of names) steps[name]();
}

function runReflect() {
  const table = { report };
  Reflect.ownKeys(table).forEach((key) => table[key]());
}

class Lifecycle {
  constructor() {
    this.hooks = {
      start() {
        compile();
      },
      stop() {},
    };
  }

  emitAll() {
    for (const key of Object.keys(this.hooks)) {
      this.hooks[key]();
    }
  }
}

runAll();
runOwn();
runNames();
runReflect();
new Lifecycle().emitAll();
