"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.extra = void 0;
const extra = () => {};
exports.extra = extra;
