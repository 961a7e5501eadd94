var app = require("./lib/app");
var lib = require("./lib/umd");

function main() {
  app.init();
  lib.format("x");
}
main();
