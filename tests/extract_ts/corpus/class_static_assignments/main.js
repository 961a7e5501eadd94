// A static added to a class after its declaration (`Model.create = function () {}`, compiled
// code and plugins do this) is called through the class, through `this` in its static methods
// and through an alias of the class; a value assigned that is no function adds no edge.
function build() {}
function register() {}

class Model {
  static boot() {
    this.plugins();
  }
}
Model.create = function () {
  return build();
};
Model.plugins = register;
Model.table = "models";

const Alias = Model;
Model.create();
Alias.plugins();
Model.boot();
