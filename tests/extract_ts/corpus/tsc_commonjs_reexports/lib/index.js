"use strict";
// What TypeScript emits for `export { work } from "./work"` and `export * from "./extra"` in
// CommonJS: a getter per re-exported name, and the `__exportStar` helper.
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    Object.defineProperty(o, k2, { enumerable: true, get: function() { return m[k]; } });
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
var work_1 = require("./work");
Object.defineProperty(exports, "work", { enumerable: true, get: function () { return work_1.work; } });
__exportStar(require("./extra"), exports);
