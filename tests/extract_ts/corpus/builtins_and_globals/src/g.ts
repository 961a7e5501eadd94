export function tick() {
  const n = Math.max(1, 2);
  const data = JSON.parse("{}");
  setTimeout(tick, 100);
  Promise.all([fetch("/a")]);
  const m = new Map<string, number>();
  m.set("a", n);
  Object.keys(data);
  return new Date();
}
function shadow(console: { log(x: string): void }) {
  console.log("not builtin");
}
