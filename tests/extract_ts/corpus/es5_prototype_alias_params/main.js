var Router = require("./lib/router");

function logger(req) {
  return req;
}
function finish() {}

function main() {
  var r = new Router();
  r.use(logger);
  r.handle({}, finish);
}
main();
