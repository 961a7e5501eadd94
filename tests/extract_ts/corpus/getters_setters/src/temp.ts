export class Temperature {
  private c = 0;
  get fahrenheit(): number {
    return this.toF(this.c);
  }
  set fahrenheit(f: number) {
    this.c = this.toC(f);
  }
  toF(c: number) {
    return c * 1.8 + 32;
  }
  toC(f: number) {
    return (f - 32) / 1.8;
  }
}
const t = new Temperature();
t.fahrenheit = 100;
console.log(t.fahrenheit);
