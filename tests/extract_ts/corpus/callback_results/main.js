// What a callback parameter returns when it is called: `createStorage(memoryBackend)` calls
// `getBackend()` for its backend, so the backend's methods are the ones called through it. A state
// creator written as the argument of a store factory is given what the factory calls it with (its
// `set` is the store's `setState`) and returns the actions the store calls.
function memoryBackend() {
  const data = new Map();
  return {
    write: (key, value) => data.set(key, value),
    read: (key) => data.get(key),
  };
}

function createStorage(getBackend) {
  const backend = getBackend();
  return {
    save: (key, value) => backend.write(key, JSON.stringify(value)),
    load: (key) => JSON.parse(getBackend().read(key)),
  };
}

function createStore(createState) {
  let state;
  const setState = (next) => {
    state = next;
  };
  state = createState(setState);
  return {
    reset: () => state.reset(),
    persist: () => state.save(),
  };
}

const storage = createStorage(memoryBackend);
const store = createStore((set) => ({
  count: 0,
  reset: () => set({ count: 0 }),
  save: () => storage.save("count", 1),
}));
store.reset();
