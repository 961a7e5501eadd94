// rxjs-style `using` operator: a plain function named like the TS 5.2 declaration keyword
export function using(make: () => number, run: (r: number) => number): number {
  return run(make());
}

export function make(): number {
  return 1;
}
