// `Object.assign(this, { onChange, retries: 3 })` assigns each member of the literal to `this`, as
// `this.onChange = onChange` does: a field of the class (what `new Field(...)` passes), of an ES5
// constructor's instances, or a member of the object literal whose method it is. A source that is
// not a literal (`Object.assign(this, options)`) adds no member we can name.
function validate() {}
function render() {}
function persist() {}

class Field {
  constructor(onChange, options) {
    Object.assign(this, { onChange, retries: 3 });
    Object.assign(this, options);
  }
  update() {
    this.onChange();
  }
}

function Widget(draw) {
  Object.assign(this, { draw: draw });
}
Widget.prototype.show = function () {
  this.draw();
};

const store = {
  init(save) {
    Object.assign(this, { save });
  },
  commit() {
    this.save();
  },
};

new Field(validate, {}).update();
new Widget(render).show();
store.init(persist);
store.commit();
