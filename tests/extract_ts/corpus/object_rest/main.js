// Object rest elements: `const { x, ...others } = o` leaves `others` the other members of `o`,
// also in a destructured parameter; a field of a shared object written inside another function
// and a callback a constructor keeps are called later.
function a() {}
function b() {}
function c() {}
const shared = {};
function install() {
  shared.cb = c;
}
function fire() {
  shared.cb();
}
class Button {
  constructor(onClick) {
    this.onClick = onClick;
  }
  click() {
    this.onClick();
  }
}
function local() {
  const o = { x: a, y: b };
  const { x, ...others } = o;
  x();
  others.y();
}
function handle({ onStart, ...rest }) {
  onStart();
  rest.onStop();
}
install();
fire();
new Button(b).click();
local();
handle({ onStart: a, onStop: c });
