// CommonJS: a function assigned to `exports.f` / `module.exports.f` is called as `cache.f()` or
// `require("./cache").f()`, so its `this` is the module's exports: `this.clear()` is the exported
// `clear`, also from an arrow inside it (lexical `this`). A name the exports lack is no edge, and
// an arrow assigned to an export has the module's `this`, which we do not follow.
exports.clear = function () {};

exports.reset = function () {
  this.clear();
  this.missing();
};

module.exports.refresh = function (keys) {
  keys.forEach((k) => this.evict(k));
  this.reset();
};

exports.evict = function (key) {
  return key;
};

exports.warm = () => {
  this.clear();
};
