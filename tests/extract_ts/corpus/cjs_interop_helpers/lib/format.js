"use strict";

// Babel's output of `export default function format() {}` and `export function pad() {}`.
Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.default = format;
exports.pad = pad;
function format(value) {
  return pad(String(value));
}
function pad(text) {
  return text;
}
