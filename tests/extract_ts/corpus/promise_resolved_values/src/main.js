import { load, onReady } from "./loader";

function ready() {}

load().then((handler) => handler.handle());

async function run() {
  const handler = await load();
  handler.handle();
}

run();
onReady(ready);
