// A consumer of compiled TypeScript: the names `Object.defineProperty(exports, ...)` and
// `__exportStar(require(...), exports)` export are the re-exported functions; a value given to
// `Object.defineProperty` on an object literal of the file is its member.
const { work, extra } = require("./lib");
const lib = require("./lib");

function later() {}
const api = {};
Object.defineProperty(api, "run", { value: later });

function main() {
  work();
  extra();
  lib.work();
  api.run();
}
main();
