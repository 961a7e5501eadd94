import * as errs from "./errors";

const models = {};
models.User = class User {
  constructor() {
    this.init();
  }
  init() {}
};

export function find(id) {
  if (!id) throw new errs.errors.NotFound("missing");
  if (id < 0) throw new errs.Conflict();
  return new models.User();
}
find(1);
