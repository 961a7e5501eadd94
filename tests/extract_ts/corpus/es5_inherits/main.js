const inherits = require("inherits"); // the npm package of the same helper
const { LineReader, Counter } = require("./stream");

function Logger() {}
Logger.prototype.log = function (msg) {
  return msg;
};
function Audit() {
  Logger.call(this);
}
inherits(Audit, Logger);

function main() {
  const r = new LineReader({});
  r.read();
  const c = new Counter();
  c.count();
  c.init({});
  new Audit().log("x");
}
main();
