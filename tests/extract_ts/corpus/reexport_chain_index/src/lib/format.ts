export function fmt(n: number) {
  return n.toFixed(2);
}
