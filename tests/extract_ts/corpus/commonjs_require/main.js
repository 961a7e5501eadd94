const { add, square } = require("./lib/math");
const log = require("./lib/log.cjs");
const ex = require("./lib/exports");
const fs = require("fs");
log(add(1, 2));
log(square(3));
ex.shout("x");
fs.readFileSync("a");
