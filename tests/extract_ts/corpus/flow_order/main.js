// Straight-line code decides which value a variable or a member holds when it is called;
// loops, branches seen from outside and closures keep every value.
function parseJson(text) { return text; }
function parseYaml(text) { return text; }
function parseToml(text) { return text; }

class MemoryCache { get(k) { return k; } }
class DiskCache { get(k) { return k; } }

// module level: the parser is chosen, then replaced before the call
let parse = parseJson;
parse = parseYaml;
parse("a: 1");

// an object literal used as a registry of handlers, overwritten before use
const handlers = {};
handlers.load = parseJson;
handlers.load = parseToml;
handlers.load("x = 1");

function configure(useDisk) {
  let cache = new MemoryCache();
  if (useDisk) {
    cache = new DiskCache();
    cache.get("in-branch");
  }
  cache.get("after-branch");
}

function retry(times) {
  let step = parseJson;
  for (let i = 0; i < times; i++) {
    step("loop");
    step = parseYaml;
  }
}

function deferred() {
  let fmt = parseJson;
  const later = () => fmt("later");
  fmt = parseToml;
  later();
  fmt("now");
}

function swapped() {
  let reader = parseYaml;
  const use = () => { reader = parseToml; };
  reader = parseJson;
  use();
  reader("after a closure assigned it");
}

function unknownFirst(opts) {
  let loader = opts.loader;
  loader = parseToml;
  loader("known now");
}

module.exports = { configure, retry, deferred, swapped, unknownFirst };
