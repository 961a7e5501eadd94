// The application prototype: an object literal that is also the module's exports.
var Router = require("./router");

var app = (exports = module.exports = {});

app.init = function init() {
  this.settings = {};
  this.defaultConfiguration();
};

app.defaultConfiguration = function defaultConfiguration() {};

app.lazyrouter = function lazyrouter() {
  if (!this._router) {
    this._router = new Router({ strict: true });
  }
};

app.use = function use(fn) {
  this.lazyrouter();
  this._router.use(fn);
  return this;
};

app.handle = function handle(req, res) {
  this._router.handle(req, res);
};

app.listen = function listen() {};
