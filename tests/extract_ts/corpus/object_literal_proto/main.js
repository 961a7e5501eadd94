// `__proto__: base` in an object literal sets its prototype: members it lacks are base's
// (`o.g()`, also through two prototypes), and `super.g()` in its methods starts at base.
const base = {
  g() {},
  h() {},
};

const o = {
  __proto__: base,
  f() {
    super.g();
    this.h();
  },
  h() {},
};
o.g();
o.f();

const deeper = {
  __proto__: o,
  run() {
    super.f();
  },
};
deeper.g();
deeper.h();
deeper.run();
