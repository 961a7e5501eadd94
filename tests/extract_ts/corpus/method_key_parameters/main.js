// A method given a key: `this[name]()` in a method whose calls through `this` pass string
// literals reaches the methods they name (in the class chain); a call passing a key we cannot
// read makes it unknown.
class Machine {
  start() {}
  stop() {}
  pause() {}
  emit(name) {
    this[name]();
  }
  run() {
    this.emit("start");
    this.emit("stop");
  }
  guess(name) {
    this[name]();
  }
  poke() {
    this.guess("pause");
    this.guess(String(Date.now()));
  }
}

const m = new Machine();
m.run();
m.poke();
