// A router is a function whose prototype is `proto` (the exported factory itself): what it is
// given is handled by proto's methods, and `this` in them is the router (proto's members).
var setPrototypeOf = require("setprototypeof");

var proto = (module.exports = function (options) {
  function router(req, res, next) {
    router.handle(req, res, next);
  }
  setPrototypeOf(router, proto);
  router.stack = [];
  return router;
});

proto.handle = function handle(req, res, out) {
  this.processParams(req);
};

proto.processParams = function processParams(req) {};

proto.use = function use(fn) {
  this.stack.push(fn);
  return this;
};
