// Hand-written CommonJS: the members added to a module.exports function are its members.
const logger = require("../lib/logger");

function start() {
  logger("start");
  logger.child("start");
}

module.exports = start;
