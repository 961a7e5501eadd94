// ES5 classes whose prototype is replaced by an object literal, and inheritance through
// Object.create(Base.prototype).
function Shape(name) {
  this.name = name;
}
Shape.prototype = {
  area: function () {
    return measure();
  },
  describe: function () {
    return this.area();
  },
  print() {
    log(this.describe());
  },
};

function Square(side) {
  Shape.call(this, "square");
  this.side = side;
}
Square.prototype = Object.create(Shape.prototype);
Square.prototype.constructor = Square;
Square.prototype.area = function () {
  return this.side * this.side;
};

function measure() {
  return 1;
}
function log(x) {}

function main() {
  var s = new Shape("blob");
  s.print();
  var q = new Square(2);
  q.describe();
  q.area();
}

main();
