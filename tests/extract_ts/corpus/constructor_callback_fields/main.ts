// A constructor parameter property (`private readonly done: () => void`) holds what `new C(...)`
// passes, like a field assigned a parameter (`this.tick = tick`) or a member of one.
function onDone(): void {}
function onFail(): void {}
function onTick(): void {}
function onStep(): void {}

class Task {
  constructor(private readonly done: () => void, public fail?: () => void) {}
  finish(): void {
    this.done();
    this.fail?.();
  }
}

class Timer {
  private tick: () => void;
  constructor(tick: () => void) {
    this.tick = tick;
  }
  run(): void {
    this.tick();
  }
}

class Stepper {
  step;
  constructor(options) {
    this.step = options.step;
  }
  go() {
    this.step();
  }
}

export function main(): void {
  new Task(onDone, onFail).finish();
  new Timer(onTick).run();
  new Stepper({ step: onStep }).go();
}
