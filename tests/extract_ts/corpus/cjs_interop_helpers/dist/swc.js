"use strict";
// swc's CommonJS output, its helpers imported from @swc/helpers.
const _interop_require_default = require("@swc/helpers/_/_interop_require_default");
const _interop_require_wildcard = require("@swc/helpers/_/_interop_require_wildcard");
const _logger = /*#__PURE__*/ _interop_require_default._(require("../lib/logger"));
const _format = /*#__PURE__*/ _interop_require_wildcard._(require("../lib/format"));
const _chalk = /*#__PURE__*/ _interop_require_default._(require("chalk"));
function report() {
  (0, _logger.default)("report");
  (0, _format.default)(3);
  _chalk.default.red("!");
}
report();
