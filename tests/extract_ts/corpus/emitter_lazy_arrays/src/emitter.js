// Hand-written emitters creating a topic's array on first use inside the push:
// (this.events[name] = this.events[name] || []).push(fn), and reading it with a fallback.
export class Emitter {
  constructor() {
    this.events = {};
  }
  on(name, fn) {
    (this.events[name] = this.events[name] || []).push(fn);
    return this;
  }
  emit(name, payload) {
    (this.events[name] || []).forEach((fn) => fn(payload));
  }
}

const topics = {};

export function subscribe(topic, fn) {
  (topics[topic] = topics[topic] || []).push(fn);
}

export function publish(topic) {
  for (const fn of topics[topic] || []) fn();
}
