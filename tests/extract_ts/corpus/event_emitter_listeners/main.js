// node's EventEmitter: `emit("name")` calls the listeners registered for that name on the same
// emitter (`on`, `once`, `addListener`, `prependListener`), here or in another file: an instance
// of a subclass of ours (`this.emit` in its method, `bus.on` outside), or the same name bound in
// the same scope of the same file for a plain `new EventEmitter()`. Another emitter's listeners
// (another class's `this`, another `stream`), other names, a name that is no string literal
// (`this.emit(reason)`) and an object with its own `emit` add nothing.
const EventEmitter = require("events");
const { Bus } = require("./bus");

function onReady(bus) {}
function onAlsoReady() {}
function onData(chunk) {}
function onEnd() {}
function onOtherData() {}

const bus = new Bus();
bus.on("ready", onReady);
bus.prependListener("ready", () => onAlsoReady());
bus.start();

const stream = new EventEmitter();
stream.on("data", onData);
stream.once("end", onEnd);

const other = new EventEmitter();
other.addListener("data", onOtherData);

function unrelated() {
  const stream = new EventEmitter();
  stream.on("data", onOtherData);
}

function pump() {
  stream.emit("data", "chunk");
  stream.emit("end");
}

const local = {
  handlers: [],
  emit(name) {},
};
local.emit("data");
pump();
