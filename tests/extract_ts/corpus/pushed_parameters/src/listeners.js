// A module-level list of listeners filled through a function's parameter, as hand-written
// event hubs and stores do: what the callers pass is what the list holds.
const listeners = [];

export function subscribe(listener) {
  listeners.push(listener);
  return () => listeners.splice(listeners.indexOf(listener), 1);
}

export function notify() {
  for (const listener of listeners) listener();
}

export function createStore(reducer) {
  const subscribers = [];
  let state;
  function onChange(fn) {
    subscribers.push(fn);
  }
  function dispatch(action) {
    state = reducer(state, action);
    subscribers.forEach((fn) => fn(state));
  }
  return { onChange, dispatch };
}

export function runAll(task) {
  const queue = [];
  queue.push(task);
  queue.forEach(function (job) {
    job.run();
  });
}
