// A `let` holding a known value and re-assigned something we cannot name (a parameter of a setter
// nobody in the program calls, a parse of text) still holds the known value: a call through it
// reaches that value's member, and the unknown assignment is left out, not the whole variable.
// The same for one side of `c ? a : b` we cannot name. A function that re-assigns its own name
// and then calls it (Babel's helpers) calls what it was just assigned, not itself.
function memoryBackend() {
  const data = new Map();
  return { write: (k, v) => data.set(k, v), read: (k) => data.get(k) };
}

function createStorage() {
  const backend = memoryBackend();
  const wrapped = {
    save: (key, value) => backend.write(key, JSON.stringify(value)),
    load: (key) => JSON.parse(backend.read(key)),
  };
  return wrapped;
}

const persist = (config, baseOptions) => (set, get, api) => {
  let options = { storage: createStorage(), ...baseOptions };
  let storage = options.storage;
  const saveState = () => storage.save(options.name, get());
  api.setOptions = (newOptions) => {
    options = { ...options, ...newOptions };
    if (newOptions.storage) {
      storage = newOptions.storage;
    }
  };
  api.rehydrate = () => set(storage.load(options.name));
  return config((...args) => {
    set(...args);
    saveState();
  }, get, api);
};

function report(line) {
  return line;
}

let printer = report;
function useConfig(text) {
  printer = JSON.parse(text).printer;
}
function emit(msg) {
  printer(msg);
}

function _setPrototypeOf(o, p) {
  _setPrototypeOf = Object.setPrototypeOf ? Object.setPrototypeOf.bind() : function _setPrototypeOf(o, p) {
    o.__proto__ = p;
    return o;
  };
  return _setPrototypeOf(o, p);
}
function _inheritsLoose(subClass, superClass) {
  subClass.prototype = Object.create(superClass.prototype);
  subClass.prototype.constructor = subClass;
  _setPrototypeOf(subClass, superClass);
}
function Base() {}
function Derived() {}
_inheritsLoose(Derived, Base);

useConfig("{}");
emit("ready");
export { persist };
