module.exports.helper = function helper() {
  return 1;
};
