// An ES5 class: `this` in the constructor function itself is an instance.
function Dog(name) {
  this.name = name;
  this.init();
}
Dog.prototype.init = function () {
  this.bark();
};
Dog.prototype.bark = function () {
  noise();
};
function noise() {}

// Object.create(proto): the new object inherits proto's members.
var animal = {
  speak: function speak() {
    noise();
  },
  walk() {
    noise();
  },
};
var cat = Object.create(animal);

function tell(msg) {
  return msg;
}

function main() {
  var d = new Dog("rex");
  d.bark();
  cat.speak();
  cat.walk();
  // Reflect.apply calls the function it is given
  Reflect.apply(tell, null, ["hi"]);
}

main();
