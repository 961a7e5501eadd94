export class Subscriber {
  error(e: unknown) {}
  next(v: number) {}
}
export const defaults = {
  make() {
    return new Subscriber();
  },
};
