// `this` passed as an argument is what the callee's parameter holds, as any other argument: a
// parser handing itself to helper functions (`closeTag(this, name)`, `reset(this)`), as
// hand-written ES5 state machines do.
class Parser {
  constructor() {
    this.stack = [];
  }
  popUntil(name) {}
  emit(token) {}
  feed(name) {
    closeTag(this, name);
    reset(this);
  }
}

function closeTag(p, name) {
  p.popUntil(name);
  p.emit({ type: "end", name });
}

function reset(p) {
  p.emit(null);
}

new Parser().feed("div");
