export function Component(opts: { selector: string }) {
  return (target: any) => target;
}
export function Input() {
  return (t: any, k: string) => {};
}
export function sealed(target: Function) {
  Object.seal(target);
}
