"use strict";
// What tsc emits for `export { greet } from "./greet"` and `export * from` in CommonJS: the
// export is a getter returning the other module's binding. require("./lib").greet is greet.
Object.defineProperty(exports, "__esModule", { value: true });
exports.shout = void 0;
var greet_1 = require("./greet");
Object.defineProperty(exports, "greet", { enumerable: true, get: function () { return greet_1.greet; } });
function shout(name) {
  return (0, greet_1.greet)(name);
}
exports.shout = shout;
// a value property defined on the exports
function version() {
  return "1";
}
Object.defineProperty(exports, "version", { value: version, enumerable: true });
