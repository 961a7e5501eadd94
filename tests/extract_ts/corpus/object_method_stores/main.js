// A method of an object literal storing its parameter on `this` (`set(fn) { this.fn = fn }`)
// gives the object that member: `this.fn()` in another method, and `store.fn()` outside,
// call what the callers of `set` pass. A member the literal declares keeps its own value too.
function work() {}
function later() {}
function initial() {}

const store = {
  set(fn) {
    this.fn = fn;
  },
  run() {
    this.fn();
  },
};
store.set(work);
store.run();
store.fn();

const queue = {
  task: initial,
  schedule(t) {
    this.task = t;
  },
  flush() {
    this.task();
  },
};
queue.schedule(later);
queue.flush();
