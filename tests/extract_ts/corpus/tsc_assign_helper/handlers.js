"use strict";
// tsc's ES5 output of object spreads (`{ ...defaults, onSave }`) goes through its `__assign`
// helper: Object.assign when there is one, else a polyfill; the helper replaces itself on its
// first call and calls the replacement (no call of itself). What `__assign(t, a, { k: f })`
// returns has the members of each argument, the last one having a key (as Object.assign's).
var __assign = (this && this.__assign) || function () {
    __assign = Object.assign || function(t) {
        for (var s, i = 1, n = arguments.length; i < n; i++) {
            s = arguments[i];
            for (var p in s) if (Object.prototype.hasOwnProperty.call(s, p))
                t[p] = s[p];
        }
        return t;
    };
    return __assign.apply(this, arguments);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.makeHandlers = makeHandlers;
exports.withLogging = withLogging;
function validate() { }
function draft() { }
function persist() { }
function log() { }
var defaults = { onValidate: validate, onSave: draft };
function makeHandlers() {
    var handlers = __assign(__assign({}, defaults), { onSave: persist });
    handlers.onValidate();
    handlers.onSave();
    return handlers;
}
function withLogging() {
    var merged = Object.assign({}, defaults, { onLog: log });
    merged.onLog();
    Object.values(merged).forEach(function (h) { return h(); });
}
