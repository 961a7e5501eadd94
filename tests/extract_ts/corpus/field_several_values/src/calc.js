// A field assigned several known values (the constructor's and a setter's, or one per branch)
// holds one of them: a call through it reaches each.
export class Add {
  apply(a, b) {
    return a + b;
  }
}

export class Multiply {
  apply(a, b) {
    return a * b;
  }
}

function encodeWithBtoa(s) {}

function encodeWithBuffer(s) {}

export class Calculator {
  constructor(strategy) {
    this.strategy = strategy;
    this.encode = typeof btoa === "function" ? encodeWithBtoa : null;
    if (!this.encode) this.encode = encodeWithBuffer;
  }
  setStrategy(strategy) {
    this.strategy = strategy;
  }
  run(a, b) {
    this.encode(String(this.strategy.apply(a, b)));
  }
}
