"use strict";
// tsc's CommonJS output keeps its helpers in variables, `(this && this.__x) || function`: the
// helper is the function (a module's `this` holds no such member), so each call of it is a call
// of that function, besides giving the module it boxes.
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
var __spreadArray = (this && this.__spreadArray) || function (to, from, pack) {
    return to.concat(Array.prototype.slice.call(from));
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.hello = hello;
exports.options = options;
function hello(who) {
    var greet_1 = __importDefault(require("./greet"));
    return (0, greet_1.default)(who);
}
function options(extra) {
    return __spreadArray(["--quiet"], extra, false);
}
