// The same indirection written by hand (and by bundlers: `(0, eval)`-style calls).
const client_1 = require("./lib/client");
const { pad } = require("./lib/format");

function main() {
  const c = new client_1.Client();
  (0, c.send)();
  (1, pad)("y");
  const f = (0, pad);
  f("z");
}
main();
