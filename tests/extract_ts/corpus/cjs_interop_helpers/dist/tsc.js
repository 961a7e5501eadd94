"use strict";
// tsc's CommonJS output (esModuleInterop) of default and namespace imports.
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default") result[k] = mod[k];
    result["default"] = mod;
    return result;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.main = main;
const format_1 = __importDefault(require("../lib/format"));
const logger_1 = __importDefault(require("../lib/logger"));
const fmt = __importStar(require("../lib/format"));
function main() {
    (0, logger_1.default)("main");
    format_1.default(2);
    logger_1.default.child("main");
    fmt.pad("x");
    __importDefault(require("../lib/store")).default();
}
