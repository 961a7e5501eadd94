// A field assigned a constructor parameter holds what `new C(...)` passes there: a function
// (`this.cb()`, as before) and also an object literal, an instance or a class of ours, whose
// members its methods then call (the strategy pattern, a tokenizer handing tokens to its parser);
// likewise a field array a method pushes its parameter onto (`this.stages.push(stage)`).
function compress() {}
function store() {}

const gzip = {
  encode() {
    compress();
  },
};

class Parser {
  onToken() {
    store();
  }
}

class Tokenizer {
  constructor(handler) {
    this.handler = handler;
  }
  emit() {
    this.handler.onToken();
  }
}

class Writer {
  constructor(codec) {
    this.codec = codec;
  }
  write() {
    this.codec.encode();
  }
}

class Builder {
  constructor(Kind) {
    this.Kind = Kind;
  }
  build() {
    return new this.Kind();
  }
}

class Pipeline {
  constructor() {
    this.stages = [];
  }
  use(stage) {
    this.stages.push(stage);
  }
  run() {
    for (const stage of this.stages) stage.encode();
  }
}

const pipeline = new Pipeline();
pipeline.use(gzip);
pipeline.run();
new Writer(gzip).write();
new Tokenizer(new Parser()).emit();
new Builder(Parser).build().onToken();
