import * as strings from "./util/strings";
export function main() {
  strings.trim("x");
  strings.pad("y");
  strings.missing();
}
