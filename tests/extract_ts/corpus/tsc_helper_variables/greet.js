"use strict";
// A CommonJS module with a default export written by hand.
function greet(name) {
    return "hi " + name;
}
module.exports = greet;
