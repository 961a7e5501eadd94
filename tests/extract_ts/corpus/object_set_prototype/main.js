// `Object.setPrototypeOf(o, base)` on an object literal of the file sets its prototype, as
// `__proto__: base` written in it does: members it lacks are base's (`logger.flush()`), and
// `super.write()` in its methods starts at base (not at another object with a `write`, `network`).
function sendToDisk() {}
function sendToNet() {}

const transport = {
  write() {
    sendToDisk();
  },
  flush() {},
};

const network = {
  write() {
    sendToNet();
  },
};

const logger = {
  write(line) {
    super.write(line);
  },
};
Object.setPrototypeOf(logger, transport);

export function main() {
  logger.write("x");
  logger.flush();
}
