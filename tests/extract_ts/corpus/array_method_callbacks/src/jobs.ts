// An array method calls the function it is given for the caller (resolution `implicit`), when
// the receiver is known to be an array (T[], Array<T>, ReadonlyArray<T>, of any element type).

export function double(n: number): number {
  return n * 2;
}

export function isBig(n: number): boolean {
  return n > 10;
}

export class Box {
  map(f: (n: number) => number): number {
    return f(1);
  }
}

export class Runner {
  constructor(private sizes: Array<number>) {}

  log(n: number): void {}

  run(): number[] {
    this.sizes.filter(isBig).forEach(this.log);
    return this.sizes.map(double);
  }
}

export function each(xs: ReadonlyArray<string>, ys: readonly number[]): void {
  xs.forEach(function show(x) {});
  ys.some(isBig);
  ys.map(String); // a builtin passed: no edge to it
}

export function notArrays(box: Box, things: any): void {
  box.map(double); // Box's own map: an edge to it (Box.map calls double: its parameter)
  things.map(double); // a receiver of unknown type: no edge
}

export function literalsAndBuiltins(table: Record<string, number>, sizes: number[]): void {
  [1, 2, 3].forEach(double);
  Object.keys(table).forEach(function visit(k) {});
  Object.values(table).filter(isBig).map(double);
  Array.from(sizes).some(isBig);
  sizes.map(double).filter((n) => n > 2);
}

export function shadowed(Object: Box): void {
  Object.keys(1).forEach(double); // a local named Object: not the builtin, no edge
}

export function runtimeCallbacks(): Promise<number> {
  setTimeout(double, 10);
  queueMicrotask(() => isBig(1));
  process.nextTick(function tick() {});
  return new Promise((resolve) => resolve(double(2)));
}

export function notTheGlobal(setTimeout: (f: () => void) => void): void {
  setTimeout(literalsAndBuiltins as any); // a parameter named setTimeout: no implicit edge
}

export function promiseChains(): void {
  fetch("/x")
    .then((r) => double(1))
    .catch(isBig)
    .finally(function done() {});
  Promise.all([]).then(double);
  new Promise((resolve) => resolve(1)).then(isBig);
}

export function notAPromise(box: Box): void {
  const thenable = { then(f: () => void) {} };
  thenable.then(double); // an object of ours with a then method: not the runtime's
}
