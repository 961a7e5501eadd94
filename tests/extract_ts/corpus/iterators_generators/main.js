// `for...of` and spreads of an object call its `[Symbol.iterator]` method
// and the `next` of what that returns; a generator's calls give the values it yields
// (`yield*` gives the elements of what it delegates to).
function first() {}
function second() {}
function third() {}

function* handlers() {
  yield first;
  yield second;
}

function* more() {
  yield* handlers();
  yield third;
}

class Steps {
  [Symbol.iterator]() {
    return new StepIterator();
  }
}

class StepIterator {
  next() {
    return { done: true, value: undefined };
  }
}

class Bag {
  *[Symbol.iterator]() {
    yield third;
  }
}

function runAll() {
  for (const h of handlers()) {
    h();
  }
  for (const g of more()) {
    g();
  }
}

function walk() {
  for (const s of new Steps()) {
    s;
  }
  const all = [...new Steps()];
  for (const item of new Bag()) {
    item();
  }
}

const lazy = function* () {
  yield second;
};

function useLazy() {
  for (const f of lazy()) {
    f();
  }
}

runAll();
walk();
useLazy();
