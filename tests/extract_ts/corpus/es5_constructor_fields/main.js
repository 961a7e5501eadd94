// `this.x = v` in an ES5 constructor function gives its instances the member x: a callback
// stored there is called through it, from the prototype's methods or from outside.
function Emitter(onEvent) {
  this.onEvent = onEvent;
  this.format = defaultFormat;
}
Emitter.prototype.emit = function (name) {
  this.onEvent(this.format(name));
};

function Timer(tick) {
  var self = this;
  this.tick = tick;
  this.stop = function () {
    clearTimeout(self.handle);
  };
}

function defaultFormat(name) {
  return name;
}
function handle(event) {
  return event;
}
function beat() {}

// a member the prototype has wins over the constructor's field of that name (as a class's
// method does over a field)
function Source(subscribe) {
  if (subscribe) {
    this.subscribe = subscribe;
  }
}
Source.prototype.subscribe = function () {};
Source.prototype.run = function () {
  return this.subscribe();
};

// a function assigning to `this` that is no constructor (lower case, no prototype members):
// its `this` is whatever object it is called on, not an instance of it
function setup() {
  this.ready = beat;
}

function main() {
  var e = new Emitter(handle);
  e.emit("start");
  e.format("x");
  var t = new Timer(beat);
  t.tick();
  t.stop();
  new Source(beat).run();
}
main();
