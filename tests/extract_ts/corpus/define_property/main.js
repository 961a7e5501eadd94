// Object.defineProperty(o, "k", { value: f }) gives o the member k = f; { get() {} } a getter:
// reading o.k runs it and gives what it returns.
const lib = require("./lib");
const { greet, version } = require("./lib");

function log(msg) {
  return msg;
}
function warn(msg) {
  return msg;
}

const logger = {};
Object.defineProperty(logger, "log", { value: log, writable: false });
Object.defineProperty(logger, "current", {
  get() {
    return warn;
  },
});

// several at once
const theme = {};
Object.defineProperties(theme, {
  apply: { value: paint },
  color: {
    get: function () {
      return refresh;
    },
  },
});

function paint() {}
function refresh() {}

class Panel {
  constructor() {
    Object.defineProperty(this, "paint", { value: paint });
  }
}
function Widget() {}
Object.defineProperty(Widget.prototype, "update", { value: refresh });

function main() {
  lib.greet("a");
  lib.shout("b");
  lib.version();
  greet("c");
  version();
  logger.log("d");
  logger.current("e");
  new Panel().paint();
  theme.apply();
  theme.color();
  const w = new Widget();
  w.update();
}
main();
