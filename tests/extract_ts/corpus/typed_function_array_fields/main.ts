// A class field typed as an array of functions (`Array<(t: T) => T>`, `((e: E) => void)[]`)
// still holds the functions pushed into it: the annotation names the element type, the pushed
// values are what iterating the field calls.
type Token = string;
interface Ev {
  name: string;
}

function trim(t: Token): Token {
  return t.trim();
}
function lower(t: Token): Token {
  return t.toLowerCase();
}
function logEvent(e: Ev): void {}
function countEvent(e: Ev): void {}

class Pipeline {
  parsers: Array<(t: Token) => Token> = [];
  private handlers: ((e: Ev) => void)[] = [];

  use(p: (t: Token) => Token): this {
    this.parsers.push(p);
    return this;
  }

  on(h: (e: Ev) => void): void {
    this.handlers.push(h);
  }

  run(input: Token): Token {
    let out = input;
    for (const p of this.parsers) out = p(out);
    return out;
  }

  emit(e: Ev): void {
    this.handlers.forEach((h) => h(e));
  }
}

export function main(): void {
  const pipe = new Pipeline();
  pipe.use(trim).use(lower);
  pipe.on(logEvent);
  pipe.on(countEvent);
  pipe.run(" A ");
  pipe.emit({ name: "done" });
}
