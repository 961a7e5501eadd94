export class Conn {
  close() {}
  ping() {}
  send(m: string) {
    return m;
  }
}
let current: Conn | undefined;
let other: Conn | null | undefined = null;
let either: Conn | string = "x";
export function open() {
  current = new Conn();
  current.send("hi");
  other?.close();
}
export function shut(c: Conn | null) {
  c?.close();
  (either as Conn).send("x");
  either.ping();
}
