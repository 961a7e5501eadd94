// Functions that are not `async` but return promises: their calls are promises too.
function load() {
  return Promise.resolve(1);
}
function fetchUser(id) {
  return fetch("/users/" + id);
}
function delay(ms) {
  return new Promise(function (resolve) {
    setTimeout(resolve, ms);
  });
}
// returns what another promise-returning function returns
function loadTwice() {
  return load().then(load);
}
// not a promise: nothing to call back
function plain() {
  return { then: 1 };
}

function show(v) {}
function fail(e) {}
function cleanup() {}
function ready() {}

function main() {
  load().then(show).catch(fail).finally(cleanup);
  fetchUser(1).then(show);
  delay(10).then(cleanup);
  loadTwice().then(show, fail);
  plain();
  // a promise held in a variable
  const pending = load();
  pending.then(ready);
}

// a variable assigned twice may be anything
function later() {
  let p = load();
  p = plain();
  p.then(fail);
}

main();
