export function log(m: string) {
  console.log(m);
}
