// Abstract methods reached through the abstract type, and `this` in static methods.

export abstract class Shape {
  abstract area(): number;
  abstract scale(k: number): Shape;

  describe(): string {
    return String(this.area());
  }

  static create<T extends Shape>(this: new () => T): T {
    return new this();
  }
}

export class Square extends Shape {
  area(): number {
    return 1;
  }
  scale(k: number): Square {
    return this;
  }
}

export abstract class Round extends Shape {}

export class Circle extends Round {
  constructor() {
    super();
  }
  area(): number {
    return 3;
  }
  scale(k: number): Circle {
    return this;
  }
}

export function anyShape(s: Shape): number {
  return s.area();
}

export function roundOnly(r: Round): number {
  return r.area(); // Circle's, not Square's
}

export function chained(s: Shape): number {
  return s.scale(2).area(); // the declared return type: any shape again
}

export function made(): number {
  return Circle.create().area(); // create() on Circle makes a Circle
}

export class Registry {
  static instance(): Registry {
    return new this();
  }
  static build(): number {
    return this.count();
  }
  static count(): number {
    return 0;
  }
}
