export function c() {
  return 3;
}
