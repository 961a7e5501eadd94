// An event emitter written by hand: the handlers of each event are kept in an array under a
// computed key of an object (`this.handlers[name]`), pushed by `on(name, fn)` and called by
// `emit(name)` through `forEach` or `for...of`; the functions come from other modules.
export class Emitter {
  constructor() {
    this.handlers = {};
  }
  on(name, fn) {
    this.handlers[name] = this.handlers[name] || [];
    this.handlers[name].push(fn);
    return this;
  }
  emit(name) {
    (this.handlers[name] || []).forEach((h) => h());
  }
  emitAll(name) {
    for (const h of this.handlers[name]) h();
  }
}

const listeners = {};
export function subscribe(topic, cb) {
  (listeners[topic] ||= []).push(cb);
}
export function publish(topic) {
  const list = listeners[topic];
  if (list) list.forEach((cb) => cb());
}
