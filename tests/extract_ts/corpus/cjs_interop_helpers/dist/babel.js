"use strict";

// Babel's CommonJS output of
//   import format, { pad } from "../lib/format";
//   import logger from "../lib/logger";
//   import * as store from "../lib/store";
var _format = _interopRequireWildcard(require("../lib/format"));
var _logger = _interopRequireDefault(require("../lib/logger"));
var store = _interopRequireWildcard(require("../lib/store"));
function _interopRequireDefault(e) {
  return e && e.__esModule ? e : { default: e };
}
function _interopRequireWildcard(e) {
  if (e && e.__esModule) return e;
  var n = { default: e };
  for (var k in e) n[k] = e[k];
  return n;
}
function render(value) {
  (0, _logger.default)("render");
  return (0, _format.default)(value) + (0, _format.pad)("");
}
function boot() {
  store.default();
  store.reset();
  const logger = _logger.default;
  logger(render(1));
  _logger.default.child("boot");
}
boot();
