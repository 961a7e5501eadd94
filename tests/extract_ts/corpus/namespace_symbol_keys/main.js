// Computed keys through a namespace import (`[K.kInit]: f`, `[K.kInit]() {}`, `o[K.kInit]()`) name
// the other file's constant, as `import { kInit }` does. Walking an object's keys:
// `Reflect.ownKeys(o)` gives its symbol keys too, `Object.getOwnPropertySymbols(o)` only them,
// `Object.keys(o)` none of them.
import * as K from "./keys";

function openDb() {}
function closeDb() {}
function warmCache() {}

const lifecycle = {
  [K.kInit]: openDb,
  [K.kDispose]: closeDb,
  warm: warmCache,
};

class Pool {
  [K.kInit]() {
    openDb();
  }
  [K.kDispose]() {
    closeDb();
  }
  drain() {
    this[K.kDispose]();
  }
}

export function boot() {
  lifecycle[K.kInit]();
  new Pool()[K.kInit]();
}

export function runEvery() {
  Reflect.ownKeys(lifecycle).forEach((key) => lifecycle[key]());
}

export function runSymbols() {
  for (const sym of Object.getOwnPropertySymbols(lifecycle)) {
    lifecycle[sym]();
  }
}

export function runNamed() {
  for (const name of Object.keys(lifecycle)) {
    lifecycle[name]();
  }
}
