export function a() {
  return 1;
}
