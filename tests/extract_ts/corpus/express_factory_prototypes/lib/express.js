// Express's factory: the application is a function (a request handler) given the prototype's
// members by `mixin(app, proto)` (merge-descriptors, Object.assign's semantics), or by
// Object.setPrototypeOf / `__proto__` in the variants below.
var mixin = require("merge-descriptors");
var extend = require("my-extend");
var proto = require("./application");

exports = module.exports = createApplication;

function createApplication() {
  var app = function (req, res, next) {
    app.handle(req, res, next);
  };
  mixin(app, proto, false);
  app.init();
  return app;
}

exports.createServer = function createServer() {
  const server = (req, res) => server.handle(req, res);
  Object.setPrototypeOf(server, proto);
  return server;
};

exports.createLegacy = function createLegacy() {
  function legacy(req, res) {
    legacy.handle(req, res);
  }
  legacy.__proto__ = proto;
  return legacy;
};

// an unknown package's helper copies nothing we know of
exports.createOther = function createOther() {
  const other = function () {
    other.handle();
  };
  extend(other, proto);
  return other;
};
