"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.work = void 0;
function work() {}
exports.work = work;
