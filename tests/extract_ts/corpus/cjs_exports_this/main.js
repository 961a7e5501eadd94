const cache = require("./lib/cache");
const store = require("./lib/store");

cache.refresh(["a"]);
require("./lib/cache").reset();
store.add(1);
