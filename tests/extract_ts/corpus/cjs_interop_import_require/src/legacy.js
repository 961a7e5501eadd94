function legacy(x) {
  return x;
}
module.exports = legacy;
