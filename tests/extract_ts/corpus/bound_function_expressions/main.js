// A function expression bound where it is written: `function () { this.tick() }.bind(this)`
// (pre-arrow code handing a method's `this` to a timer or a listener), `(function () {
// ... }).call(app)` (a module body run with a given `this`) and `.apply(t, args)`: `this`
// in it is the bound value. `.bind(null)` gives it no `this` we know.
class Timer {
  start() {
    setTimeout(
      function () {
        this.tick();
      }.bind(this),
      10,
    );
    this.handler = function () {
      this.stop();
    }.bind(this);
  }

  tick() {}

  stop() {}
}

const app = {
  init() {},
  routes: [],
};

(function () {
  this.init();
}).call(app);

(function (name) {
  this.init(name);
}).apply(app, ["x"]);

const loose = function () {
  this.init();
}.bind(null);
loose();

new Timer().start();
