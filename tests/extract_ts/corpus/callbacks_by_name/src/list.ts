export function fmt(n: number) {
  return `#${n}`;
}
export function render(items: number[]) {
  const out = items.map(fmt);
  items.forEach((i) => fmt(i));
  return out.join(",");
}
