// `this` in a class static block is the class, as in a static method: its statics are called
// and a field assigned there (`this.parsers = [...]`, `this.instance = new Lazy()`) is read like
// a static. The calls of a static block belong to the scope enclosing the class.
function defaultParser(text) {
  return text;
}

function jsonParser(text) {
  return JSON.parse(text);
}

class Codec {
  static parsers;

  static register(parse) {
    this.parsers.push(parse);
  }

  static reset() {}

  static {
    this.parsers = [defaultParser];
    this.reset();
    this.register(jsonParser);
  }

  static parseAll(text) {
    for (const p of this.parsers) {
      p(text);
    }
  }
}

class Lazy {
  static {
    this.instance = new Lazy();
  }

  start() {}
}

export function main() {
  Codec.parseAll("x");
  Lazy.instance.start();
}
