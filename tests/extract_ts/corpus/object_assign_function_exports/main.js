const createApp = require("./app");

function start() {
  const app = createApp();
  app.use();
  createApp.json();
  new createApp.Router().use();
}

start();
