export function track(event: string) {
  console.debug(event);
}
