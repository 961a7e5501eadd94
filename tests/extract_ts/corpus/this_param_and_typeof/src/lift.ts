import { Subscriber, defaults } from "./sub";
export function lift(fn: (this: Subscriber, v: number) => void) {
  return function (this: Subscriber, v: number) {
    try {
      fn.call(this, v);
      [v].forEach(() => this.next(v));
    } catch (err) {
      this.error(err);
    }
  };
}
export function configure(d: typeof defaults) {
  return d.make();
}
