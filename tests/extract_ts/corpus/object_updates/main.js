// An object's members include the keys assigned to it later (`obj.k = f`, `obj['k'] = f`, also
// from inside a function), the members copied in by `Object.assign(target, ...)` and by a
// spread (`{ ...a, k: f }`: a later key wins), and computed keys naming a string constant.
function save() {}
function load() {}
function reset() {}
function log() {}
function trace() {}

const api = { save };
Object.assign(api, { load }, { clear() {} });
api.save();
api.load();
api.clear();

const extended = { ...api, log, save: trace };
extended.load();
extended.log();
extended.save();

const registry = {};
registry.onLog = log;
registry["on-trace"] = trace;
registry.onLog();
registry["on-trace"]();

const state = { handler: null };
function install() {
  state.handler = reset;
}
function fire() {
  state.handler();
}

const KEY = "run";
const table = { [KEY]: save, ["plain"]: load };
table.run();
table.plain();
table[KEY]();

install();
fire();
