import { a } from "./a.js";
import { c } from "./c.mjs";
import { Comp } from "./comp";
import { t } from "./types";
export function b() {
  a();
  c();
  Comp();
  t();
}
