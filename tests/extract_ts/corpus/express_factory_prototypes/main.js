const express = require("./lib/express");

function logger(req, res, next) {
  next();
}

const app = express();
app.use(logger);
app.listen(3000);

const server = express.createServer();
server.listen();

express.createLegacy().listen();
express.createOther().listen();

import("./lib/esm.mjs").then(({ createHandler, createMerged }) => {
  createHandler().close();
  createMerged().close();
});
