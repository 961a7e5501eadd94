// `this.constructor` is the instance's class: its static methods and `new`.
class Model {
  static table() {
    return "models";
  }
  constructor() {
    this.id = 0;
  }
  save() {
    return this.constructor.table();
  }
  clone() {
    return new this.constructor();
  }
}

function main() {
  const m = new Model();
  m.save();
  m.clone().save();
}

main();
