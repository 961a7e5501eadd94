// A plain CommonJS module: no __esModule flag, so the interop helpers box it as `default`.
module.exports = function logger(message) {
  return message;
};
module.exports.child = function child(prefix) {
  return prefix;
};
