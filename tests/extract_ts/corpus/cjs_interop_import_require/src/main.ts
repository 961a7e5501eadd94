import legacy = require("./legacy");
import * as mod from "./mod.cjs";
import fs = require("fs");
legacy(1);
mod.run();
fs.existsSync("x");
