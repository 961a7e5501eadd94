export const Counter = class {
  static create() {
    return new Counter();
  }
  #count = 0;
  #bump() {
    this.#count++;
  }
  inc() {
    this.#bump();
    return Counter.create();
  }
};
