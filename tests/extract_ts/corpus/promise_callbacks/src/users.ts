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
