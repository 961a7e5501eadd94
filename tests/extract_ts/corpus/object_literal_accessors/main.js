// Getters of object literals run when the property is read.
function compute() {
  return 42;
}
function store(v) {}

var config = {
  get port() {
    return compute();
  },
  set port(v) {
    store(v);
  },
  plain: compute,
};

const settings = {
  get handler() {
    return compute;
  },
};

function readPort() {
  return config.port;
}

function main() {
  var p = config.port;
  config.port = 8080;
  console.log(p + config.port);
  settings.handler();
  config.plain();
  readPort();
}

main();
