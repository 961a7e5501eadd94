const { EventEmitter } = require("node:events");

class Bus extends EventEmitter {
  start() {
    this.emit("ready", this);
  }

  stop(reason) {
    this.emit(reason);
  }
}

// another emitter class of the file: its listeners are not Bus's
class Server extends EventEmitter {
  listen() {
    this.on("ready", () => this.log());
  }

  log() {}
}

module.exports = { Bus, Server };
