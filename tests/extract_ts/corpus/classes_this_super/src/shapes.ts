export class Shape {
  constructor(public name: string) {}
  area(): number {
    return 0;
  }
  describe(): string {
    return this.name + this.area();
  }
}
export class Square extends Shape {
  constructor(private side: number) {
    super("square");
  }
  area(): number {
    return this.side * this.side;
  }
  describe(): string {
    return "[" + super.describe() + "]";
  }
  double() {
    return this.area() * 2 + this.perimeter();
  }
  perimeter() {
    return 4 * this.side;
  }
}
export class Cube extends Square {
  volume() {
    return this.area() * 3;
  }
}
const c = new Cube(3);
c.volume();
c.describe();
