function helper() {
  return "outer";
}
export function outer() {
  function helper() {
    return "inner";
  }
  const run = () => helper();
  return run();
}
export function other() {
  return helper();
}
