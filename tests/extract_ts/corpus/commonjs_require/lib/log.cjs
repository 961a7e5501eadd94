module.exports = function log(msg) {
  console.log(msg);
};
