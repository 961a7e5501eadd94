// A promise made by Promise.resolve(x) resolves to x: its `then` callback and `await` get x
// (a cached module's handler, returned without a request).
class Handler {
  handle() {}
}

const cache = new Handler();

export function load() {
  return Promise.resolve(cache);
}

export function onReady(fn) {
  return Promise.resolve(fn).then((cb) => cb());
}
