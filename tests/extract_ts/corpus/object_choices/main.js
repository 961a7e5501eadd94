// Object literals written as one side of `&&`, `||`, `??` or a conditional are the named
// object the variable holds: their methods are named under it and calls reach them.
function sendHttp1(req) { return req; }
function sendHttp2(req) { return req; }
function readDisk(key) { return key; }

const verbose = process.argv.includes("--verbose");
const http2 = process.argv.includes("--http2");

const tracer = verbose && {
  trace(msg) {
    console.log(msg);
  },
};
tracer.trace("start");

const transport = http2 ? { send: sendHttp2 } : { send: sendHttp1 };
transport.send({ url: "/" });

const memoryStore = {
  get(key) {
    return key;
  },
};
const overrides = { store: memoryStore };

const store = overrides.store ?? {
  get(key) {
    return readDisk(key);
  },
};
store.get("config");

const renderer = http2
  ? {
      render() {
        return sendHttp2("page");
      },
    }
  : {
      render() {
        return sendHttp1("page");
      },
    };
renderer.render();
