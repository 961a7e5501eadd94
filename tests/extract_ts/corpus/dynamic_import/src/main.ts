export async function run() {
  const heavy = await import("./heavy");
  heavy.compute(1);
  const { compute } = await import("./heavy");
  compute(2);
  const lib = await import("lodash");
  lib.debounce(run);
  import("./missing").then((m) => m.go());
}
