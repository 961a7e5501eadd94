// `this` bound explicitly: a function called through `f.call(obj, ...)`, `f.apply(obj, args)` or a
// function made by `f.bind(obj)` runs with `this` = obj, so `this.k()` in it calls obj's `k` (the
// call / apply / bind call of f still calls f). A method of an object literal keeps its own object
// and also gets the one it is bound to (`counter.reset.bind(gauge)()`). A function never called
// that way has no `this` we know: `this.save()` in `detached` is no edge. An arrow's `this` is its
// enclosing function's (`queue` sees `paint`'s); binding an arrow changes nothing (`shout`).
const counter = {
  count: 0,
  increment() {},
  reset() {
    this.increment();
  },
};

const gauge = {
  increment() {},
};

class Renderer {
  draw() {}
}

function onTick(delta) {
  this.increment();
}

function paint() {
  const queue = () => {
    if (this) this.draw();
  };
  queue();
}

const shout = () => this.draw();

class Widget {
  draw() {}
  refresh() {
    paintWidget.call(this); // a method lending its instance
  }
}

function paintWidget() {
  this.draw();
}

function detached() {
  this.save();
}

function tickCounter() {
  onTick.call(counter, 1);
}

function tickGauge() {
  onTick.apply(gauge, [1]);
}

function frame() {
  const render = paint.bind(new Renderer());
  render();
}

function resetGauge() {
  counter.reset.bind(gauge)();
}

tickCounter();
tickGauge();
frame();
resetGauge();
detached();
shout.call(new Renderer());
