// ES5 inheritance by the helpers Node code uses instead of Object.create:
// util.inherits(Ctor, Base) and Object.setPrototypeOf(Ctor.prototype, Base.prototype) make
// Base.prototype the prototype of Ctor.prototype, so Ctor's instances have Base's members.
var util = require("util");

function Readable(opts) {
  this.init(opts);
}
Readable.prototype.init = function (opts) {
  this.opts = opts;
};
Readable.prototype.read = function () {
  return this.parse(); // Readable's own parse, or a subclass's override
};
Readable.prototype.parse = function () {
  return null;
};

function LineReader(opts) {
  Readable.call(this, opts);
}
util.inherits(LineReader, Readable);
LineReader.prototype.parse = function () {
  return "line";
};

function Counter() {}
Object.setPrototypeOf(Counter.prototype, Readable.prototype);
Counter.prototype.count = function () {
  return this.read();
};

module.exports = { Readable: Readable, LineReader: LineReader, Counter: Counter };
