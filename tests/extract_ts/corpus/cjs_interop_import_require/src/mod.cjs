const util = require("./util.cjs");
exports.run = () => util.helper();
