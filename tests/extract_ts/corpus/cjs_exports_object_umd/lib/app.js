// express-style: the exports object held in a variable and given its members afterwards;
// `this` in a function assigned to one of its members is that object.
var app = (exports = module.exports = {});

app.init = function init() {
  this.settings = {};
  this.defaultConfiguration();
};

app.defaultConfiguration = function () {
  enable("x-powered-by");
};

function enable(name) {
  return name;
}
