// an interface named like a global value: `new Error()` still calls the global
interface Error {
  code: number;
}

export function fail(e: Error): never {
  throw new Error(String(e.code));
}
