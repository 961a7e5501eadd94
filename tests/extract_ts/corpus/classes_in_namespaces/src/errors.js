// Classes held in object properties and namespaces: `new A.B()`, `throw new A.B()`, through an
// object literal, a member assigned later and a module namespace.
export const errors = {
  NotFound: class NotFound extends Error {
    constructor(msg) {
      super(msg);
      this.report();
    }
    report() {}
  },
};
export class Conflict {
  constructor() {}
}
