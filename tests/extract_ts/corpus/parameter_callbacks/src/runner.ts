// A function calling its parameter calls what its callers pass there (resolution `inferred`).

export function run(cb) {
  return cb();
}

export function apply(fn: (x: number) => number, x: number): number {
  return fn(x);
}

export function forward(h) {
  return run(h); // run calls what forward is given
}

export function reassigned(cb) {
  cb = Math.random;
  return cb(); // straight-line code: Math.random from here on, not what the callers pass
}

export class Emitter {
  on(handler, times = 1) {
    handler(times);
  }
}

export class Task {
  constructor(private label: string, done) {
    this.done = done; // a field holding what `new Task(...)` is given
    done(); // and called right away
  }

  done: any;

  finish(): void {
    this.done();
  }
}
