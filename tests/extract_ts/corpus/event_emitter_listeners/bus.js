const { EventEmitter } = require("node:events");

class Bus extends EventEmitter {
  start() {
    this.emit("ready", this);
  }

  stop(reason) {
    this.emit(reason);
  }
}

module.exports = { Bus };
