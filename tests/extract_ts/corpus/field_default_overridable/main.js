import { App } from "./app.js";

function logRequest(c) {
  return `${c.method} ${c.path}`;
}

const app = new App();
app.use(logRequest);
app.handle({ method: "GET", path: "/" });
