// What tsc emits for a class getter with target ES5: Object.defineProperty on the prototype.
// Reading the property runs the getter (an edge to it) and gives what it returns; `this` in
// the getter is an instance.
var Subscription = (function () {
  function Subscription(teardown) {
    this.teardown = teardown;
  }
  Object.defineProperty(Subscription.prototype, "closed", {
    get: function () {
      return this.isDone();
    },
    enumerable: false,
    configurable: true,
  });
  Object.defineProperty(Subscription.prototype, "finalizer", {
    get: function () {
      return cleanup;
    },
    enumerable: false,
    configurable: true,
  });
  Subscription.prototype.isDone = function () {
    return false;
  };
  Subscription.prototype.unsubscribe = function () {
    if (!this.closed) {
      this.finalizer();
    }
  };
  return Subscription;
})();

function cleanup() {}

function main() {
  var s = new Subscription(cleanup);
  s.unsubscribe();
}
main();
