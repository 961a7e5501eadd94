// A Node-style ES5 class: the prototype held in a variable (`var proto = Router.prototype`) gets
// the methods, an external base through util.inherits, and callbacks given to the methods
// (anonymous functions, named by the member they are assigned to) are what `r.use(f)` passes.
var EventEmitter = require("events").EventEmitter;
var util = require("util");

module.exports = Router;

function Router() {
  EventEmitter.call(this);
  this.stack = [];
}
util.inherits(Router, EventEmitter);

var proto = Router.prototype;

proto.use = function (fn) {
  this.stack.push(fn);
  this.emit("use"); // EventEmitter's, through the external base
  return this;
};

proto.handle = function (req, done) {
  this.stack.forEach(function (layer) {
    layer(req);
  });
  done();
};
