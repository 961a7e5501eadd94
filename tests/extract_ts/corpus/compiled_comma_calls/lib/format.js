"use strict";
// What tsc / Babel emit for `export function pad() {}`: a CommonJS module.
Object.defineProperty(exports, "__esModule", { value: true });
exports.withRetry = exports.pad = void 0;
function pad(s) {
  return s;
}
exports.pad = pad;
function withRetry(task) {
  return task();
}
exports.withRetry = withRetry;
