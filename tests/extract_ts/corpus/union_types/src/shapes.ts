// A value typed by a union of known types: a call reaches each member type's method.

export class Circle {
  area(): number {
    return 3;
  }
  radius(): number {
    return 1;
  }
}

export class Square {
  area(): number {
    return 1;
  }
}

export interface Labelled {
  label(): string;
}

export class Tag implements Labelled {
  label(): string {
    return "tag";
  }
}

export function area(s: Circle | Square): number {
  return s.area(); // Circle.area and Square.area
}

export function maybe(c: Circle | null | undefined): number {
  return c ? c.radius() : 0; // null and undefined do not count
}

export function mixed(x: Circle | Labelled): void {
  x.area?.(); // only Circle has area
}

export function labels(x: Tag | Labelled): string {
  return x.label(); // Tag.label, and each implementation of Labelled
}

export function unknownMember(x: Circle | string): number {
  return x.radius(); // a union with a type we do not know: not guessed
}

export function pick(round: boolean) {
  if (round) {
    return new Circle();
  }
  return new Square();
}

export function picked(): number {
  return pick(true).area(); // returns of two known classes: either area
}

export function either(round: boolean): number {
  const s = round ? new Circle() : new Square();
  let t = new Circle();
  if (!round) {
    t = new Square();
  }
  return s.area() + t.area();
}

export function ternary(round: boolean): number {
  const s = round ? new Circle() : new Square();
  return s.area(); // either class's area
}

export class Cache {
  hit(): number {
    return 1;
  }
}

export function fallback(c?: Cache): number {
  const use = c ?? new Cache();
  return use.hit();
}

export function orElse(c: Cache | null): number {
  return (c || new Cache()).hit();
}
