const paths = require("./lib/paths");
const { normalize } = require("./lib/paths");
const log = require("./lib/log");

function main() {
  paths.join("a", "b");
  paths.resolve("c");
  normalize("d");
  log.info();
}
main();
