import { createStore, notify, runAll, subscribe } from "./listeners";

function render() {}

function counter(state, action) {
  return action;
}

function log(state) {}

class Job {
  run() {}
}

subscribe(render);
notify();

const store = createStore(counter);
store.onChange(log);
store.dispatch(1);

runAll(new Job());
