import { route, transaction } from "./app";

route("/users", function listUsers(ctx, log) {
  log("list");
  ctx.reply([]);
});

transaction(function save(done) {
  done();
});
