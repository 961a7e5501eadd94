import { Client, createClient, makeClient, connect } from "./client";
const a: Client = createClient();
a.fetch("x");
const b = makeClient();
b.close();
async function go() {
  const c = await connect();
  c.fetch("y");
  createClient().close();
}
go();
function take(k: Client) {
  k.close();
}
