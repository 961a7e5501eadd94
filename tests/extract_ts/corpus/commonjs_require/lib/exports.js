exports.greet = function (name) {
  return "hi " + name;
};
exports.shout = (s) => exports.greet(s).toUpperCase();
