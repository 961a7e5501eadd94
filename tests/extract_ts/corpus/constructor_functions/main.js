// ES5 classes: a constructor function (declared, or a function assigned to an object's key)
// whose `prototype` gets methods; `new F()` is an instance of them, `this` in such a method is
// one, and the function can be held in variables, object properties and namespace objects.
function log() {}
var ns = {};
ns.Widget = function Widget() {
  log();
};
ns.Widget.prototype.render = function render() {
  log();
};

function Shape() {}
Shape.prototype.area = function () {
  log();
};
Shape.prototype.describe = function describe() {
  this.area();
};
Object.assign(Shape.prototype, {
  scale() {
    log();
  },
});

const lib = { models: { Shape } };
const Alias = ns.Widget;

function main() {
  new ns.Widget().render();
  var s = new lib.models.Shape();
  s.describe();
  s.scale();
  new Alias().render();
}

function fail() {
  throw new lib.models.Shape();
}
main();
fail();
