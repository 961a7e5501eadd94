import { compose } from "./compose.js";

const notFound = (c) => `404 Not Found: ${c.path}`;
const fallbackError = (err, c) => `500 ${err.message} at ${c.path}`;

export class App {
  errorHandler = fallbackError;
  #notFoundHandler = notFound;
  routes = [];

  onError = (handler) => {
    this.errorHandler = handler;
    return this;
  };

  notFound(handler) {
    this.#notFoundHandler = handler;
    return this;
  }

  use(mw) {
    this.routes.push(mw);
    return this;
  }

  reset() {
    this.routes = [];
  }

  handle(c) {
    try {
      return compose(this.routes, this.errorHandler, this.#notFoundHandler)(c);
    } catch (err) {
      return this.errorHandler(err, c);
    }
  }
}
