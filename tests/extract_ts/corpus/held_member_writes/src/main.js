import { Registry, app, makeButton, onBefore, runBefore } from "./app";

class Logger {
  install() {}
}

function checkAuth() {}

function makeWidget() {}

app.use(new Logger());
app.start();

onBefore(checkAuth);
runBefore();

Registry.register(makeWidget);
Registry.createAll();

makeButton();
