// A UMD wrapper: the factory is a parameter of the IIFE; `module.exports = factory()` is what
// the function passed there returns.
(function (root, factory) {
  if (typeof define === "function" && define.amd) {
    define([], factory);
  } else if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.Lib = factory();
  }
})(this, function () {
  function format(s) {
    return s;
  }
  return { format: format };
});
