const make = require("./lib/make");
import create, { tool } from "./lib/esm.mjs";

function main() {
  make();
  make.helper();
  create.extend();
  tool.run();
}
main();
