// The callback given to `.catch` gets the rejection: what the async function the promise chain
// starts with throws (`load().then(show).catch((e) => e.report())`, also through `.finally`
// and methods). A function that is not async throws before any promise exists, so its throws
// are no rejection; a chain starting with no call of ours tells nothing.
class LoadError extends Error {
  report() {}
}
class AuthError extends Error {
  report() {}
  relogin() {}
}

async function load(id) {
  if (!id) throw new LoadError(id);
  return id;
}

function parse(text) {
  if (!text) throw new LoadError("empty");
  return Promise.resolve(text);
}

class Api {
  async get(path) {
    throw new AuthError(path);
  }
}

function show(x) {}

export function page() {
  load(1)
    .then(show)
    .catch((e) => e.report());
  const client = new Api();
  client
    .get("/me")
    .finally(() => show(null))
    .catch(function (err) {
      err.relogin();
    });
  parse("").catch((e) => e.report());
  fetch("/x").catch((e) => e.report());
}
