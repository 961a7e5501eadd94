// A callback passed to promise.then(...) gets what the promise resolves to.

export class User {
  greet(): string {
    return "hi";
  }
}

export async function fetchUser(): Promise<User> {
  return new User();
}

export function loadAll(): Promise<User[]> {
  return Promise.resolve([new User()]);
}

export function greetLater(): void {
  fetchUser().then((u) => u.greet());
  loadAll().then((users) => users.forEach((u) => u.greet()));
}

export async function greetNow(): Promise<string> {
  const u = await fetchUser();
  return u.greet();
}

// a call of an async function (or of one declared to return Promise<...>) is a promise too
export class Api {
  async load(): Promise<User> {
    return new User();
  }
  refresh(): void {
    this.load().then(this.done);
  }
  done(u: User): void {
    u.greet();
  }
}

export const later = async () => new User();

export function report(u: User): void {}

export function arrowAsync(): void {
  later().then(report).catch(report);
}

export function plain(): User {
  return new User();
}

export function notAPromise(): void {
  (plain() as any).then(report); // not known to be a promise: no edge to report
}
