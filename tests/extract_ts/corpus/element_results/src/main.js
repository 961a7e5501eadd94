import { History, lastOf, route, runQueue } from "./router";

function logger(next) {}

function auth(next) {}

class Rename {
  revert() {}
}

function done() {}

route("/");
runQueue([logger, auth]);

const history = new History();
history.record(new Rename());
history.undo();

lastOf([done]);
