// Each request gets an object whose prototype is the shared response (Object.create of an
// object of ours): its members are found on the prototype.
var response = require("./response");

function handle(req) {
  var res = Object.create(response);
  res.locals = {};
  res.sendStatus(204);
  return res;
}

var defaults = {
  greet: function () {
    return this.name();
  },
  name: function () {
    return "app";
  },
};

var custom = Object.create(defaults);
custom.shout = function () {
  return this.greet();
};
custom.shout();

module.exports = handle;
