// A function is an object: members assigned to it (`make.helper = function () {}`) are called
// through it, here, through `require()` and through an ES import of another module.
function make() {
  return make.helper();
}
make.helper = function () {
  return make.inner();
};
make.inner = () => {};
make.version = "1";

function plain() {}
plain.reset = reset;
function reset() {}

module.exports = make;
