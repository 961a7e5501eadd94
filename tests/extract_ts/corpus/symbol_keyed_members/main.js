// Members keyed by a symbol held in a const (`const KEY = Symbol("k")`, `Symbol.for`): class
// methods, object literal members and properties assigned with `o[KEY] = f` are found by the
// same key; a Map keyed by symbols is written in one function and read in another.
const kFlush = Symbol("flush");
const kReset = Symbol.for("app.reset");
const START = "start";

function logFlush() {}
function onQuit() {}
function onSave() {}

class Buffer {
  [kFlush]() {
    logFlush();
  }
  [kReset]() {}
  [START]() {
    this[kReset]();
  }
  write() {
    this[kFlush]();
    this.start();
  }
}

const hooks = {
  [kFlush]: logFlush,
  [kReset]() {
    onQuit();
  },
};

const commands = {};
commands[kFlush] = function flushCommand() {};

const QUIT = Symbol("quit");
const SAVE = Symbol("save");
const handlers = new Map();

function install() {
  handlers.set(QUIT, onQuit);
  handlers.set(SAVE, onSave);
}

function dispatchQuit() {
  handlers.get(QUIT)();
}

function run() {
  new Buffer().write();
  hooks[kFlush]();
  hooks[kReset]();
  commands[kFlush]();
  install();
  dispatchQuit();
}

run();
