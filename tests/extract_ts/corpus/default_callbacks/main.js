// A callback parameter given a default by re-assigning it (`cb = cb || noop`, `fn = fn ?? fallback`,
// `if (!done) done = noop`): calls reach what the callers pass and the default; a parameter
// re-assigned outright in straight-line code (`cb = finish`) is that value alone.
function noop() {}
function fallback() {}
function finish() {}
function onSaved() {}
function onLoaded() {}

function save(data, cb) {
  cb = cb || noop;
  cb(data);
}

function load(path, fn) {
  fn = fn ?? fallback;
  return fn(path);
}

function close(done) {
  if (!done) done = noop;
  done();
}

function replaced(cb) {
  cb = finish;
  cb();
}

save({}, onSaved);
save({});
load("a.json", onLoaded);
load("b.json");
close();
replaced(onSaved);
