export function pad(s: string) {
  return s + " ";
}
export function trim(s: string) {
  return pad(s).trim();
}
