function add(a, b) {
  return a + b;
}
function square(x) {
  return mul(x, x);
}
const mul = (a, b) => a * b;
module.exports = { add, square };
