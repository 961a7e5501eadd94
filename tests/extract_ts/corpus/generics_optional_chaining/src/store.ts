export class Store<T> {
  private items: T[] = [];
  add(item: T): Store<T> {
    this.items.push(item);
    return this;
  }
  first(): T | undefined {
    return this.items[0];
  }
}
export function identity<T>(x: T): T {
  return x;
}
export function make<T>(): Store<T> {
  return new Store<T>();
}
