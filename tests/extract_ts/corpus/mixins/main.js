// Mixins: `Object.assign(C.prototype, mixin)` gives C's instances the mixin's members, and a
// class-expression mixin (`(Base) => class extends Base {}`) extends the classes it is given:
// `super` calls through it reach them.
function log() {}

const Serializable = {
  serialize() {
    log();
  },
};

class Model {
  save() {
    this.serialize();
  }
}
Object.assign(Model.prototype, Serializable);

const Timestamped = (Base) =>
  class extends Base {
    touch() {
      log();
    }
    save() {
      this.touch();
      super.save();
    }
  };

class Base {
  save() {}
}

class User extends Timestamped(Base) {
  update() {
    this.save();
    this.touch();
  }
}

function main() {
  new Model().serialize();
  const u = new User();
  u.update();
  u.touch();
}
main();
