export interface Options {
  retries: number;
}

export function helper(): number {
  return 2;
}
