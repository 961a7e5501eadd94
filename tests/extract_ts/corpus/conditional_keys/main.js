// A key held in a `const` of a conditional of string literals names each of them:
// `const method = body ? "post" : "get"; client[method]()` calls `post` or `get` (nested
// conditionals too). A `let` may be reassigned to anything: `client[verb]()` is no edge.
const client = {
  get() {},
  post() {},
  put() {},
  remove() {},
};

export function send(body, replace) {
  const method = body ? (replace ? "put" : "post") : "get";
  return client[method](body);
}

export function drop(verb) {
  let name = verb ? "remove" : "get";
  name = verb;
  return client[name]();
}

class Store {
  save() {}
  discard() {}
  finish(ok) {
    const step = ok ? "save" : "discard";
    this[step]();
  }
}

new Store().finish(true);
