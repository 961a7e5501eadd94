// A method put on a prototype by `Object.assign(C.prototype, { ... })`, overridden in a
// class-expression mixin that calls it through `super`, and reached from a subclass of the mixin.
function log() {}
class Animal {}
Object.assign(Animal.prototype, {
  speak() {
    log();
  },
});
const Loud = (Base) =>
  class extends Base {
    speak() {
      super.speak();
      log();
    }
  };
class Dog extends Loud(Animal) {
  bark() {
    this.speak();
  }
}
new Dog().bark();
