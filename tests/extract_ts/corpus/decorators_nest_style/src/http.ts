export function Controller(prefix: string) {
  return (target: Function) => {};
}
export function Get(path?: string) {
  return (t: object, key: string) => {};
}
export function Param(name: string) {
  return (t: object, key: string, index: number) => {};
}
export function Injectable() {
  return (target: Function) => {};
}
