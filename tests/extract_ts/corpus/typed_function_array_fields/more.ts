// The same with an alias for the function type, a field declared without an initialiser and
// filled in the constructor, a `readonly` field, and the array read through a local name.
type Hook = (n: number) => number;
type Listener = { (msg: string): void };

function double(n: number): number {
  return n * 2;
}
function inc(n: number): number {
  return n + 1;
}
function print(msg: string): void {}
function first(n: number): number {
  return n;
}

export class Chain {
  private readonly hooks: Hook[] = [];
  listeners: Array<Listener>;
  starters: Hook[];

  constructor() {
    this.listeners = [];
    this.starters = [first];
  }

  add(h: Hook): void {
    this.hooks.push(h);
  }

  listen(l: Listener): void {
    this.listeners.push(l);
  }

  apply(n: number): number {
    const hooks = this.hooks;
    const started = this.starters[0](n);
    return hooks.reduce((acc, h) => h(acc), started);
  }

  tell(msg: string): void {
    for (const l of this.listeners) {
      l(msg);
    }
  }
}

export function setup(): number {
  const c = new Chain();
  c.add(double);
  c.add(inc);
  c.listen(print);
  c.tell("ready");
  return c.apply(1);
}
