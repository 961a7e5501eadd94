// Exports added in one go: Object.assign(module.exports, { ... }) (or exports) makes each member
// of the literal an export, as `exports.name = ...` would.
function join(a, b) {
  return a + b;
}
function normalize(p) {
  return p;
}
const sep = "/";

Object.assign(module.exports, {
  join,
  normalize: normalize,
  sep,
  resolve(p) {
    return normalize(p);
  },
});
