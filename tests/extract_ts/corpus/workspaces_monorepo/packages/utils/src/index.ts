export function slug(s: string) {
  return s;
}
export { capitalize } from "./strings";
