export function compute(n: number) {
  return n * 2;
}
