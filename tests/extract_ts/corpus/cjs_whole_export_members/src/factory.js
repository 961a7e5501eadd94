module.exports = function make() {
  inner();
};
function inner() {}
module.exports.helper = function helper() {};
