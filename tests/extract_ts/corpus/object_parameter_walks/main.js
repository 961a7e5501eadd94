// A parameter walked over its own keys or values, its callers passing object literals (written
// at the call or bound to a name): `for (k in hooks) hooks[k]()`, `Object.keys(hooks).forEach((k)
// => hooks[k]())`, `Object.values(steps)` / `Object.entries(steps)` iterated and called. Each call
// reaches the members of each object passed (data members are no functions). A key walked over
// another object than the one read is not followed (`other[k]()` in `mismatch`).
function migrate() {}
function seed() {}
function lint() {}
function test() {}
function bundle() {}
function publish() {}

function runHooks(hooks) {
  for (const name in hooks) {
    hooks[name]();
  }
}

function runPlugins(plugins) {
  Object.keys(plugins).forEach((key) => plugins[key]());
}

function pipeline(steps) {
  Object.values(steps).forEach((step) => step());
}

function release(stages) {
  for (const [name, stage] of Object.entries(stages)) {
    console.log(name);
    stage();
  }
}

function mismatch(table, other) {
  for (const k in table) other[k]();
}

const ci = { lint, test, retries: 2 };

runHooks({ migrate, seed });
runPlugins(ci);
pipeline({ bundle: bundle });
release({ publish, test });
mismatch({ lint }, { seed });
