import { slugify, upper as up } from "./util";
export function run(x: string) {
  return up(slugify(x));
}
run("a");
