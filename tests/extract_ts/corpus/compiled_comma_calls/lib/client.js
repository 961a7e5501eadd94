"use strict";
// Compiled `import { pad, withRetry } from "./format"`: each call of an imported function is
// written `(0, format_1.pad)(...)` so that it gets no `this`. The comma expression's value is
// its last operand: the call is a call of format_1.pad.
Object.defineProperty(exports, "__esModule", { value: true });
exports.Client = void 0;
const format_1 = require("./format");
function fetchOnce() {
  return (0, format_1.pad)("x");
}
class Client {
  send() {
    return (0, format_1.withRetry)(fetchOnce); // withRetry calls the task it is given
  }
  close() {
    (0, this.reset)(); // unusual, but the same rule
  }
  reset() {}
}
exports.Client = Client;
