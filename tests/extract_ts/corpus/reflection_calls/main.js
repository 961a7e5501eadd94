// Calls made through the reflection API: Reflect.construct builds an instance (its constructor
// runs), and the invokers borrowed from Function.prototype call the function they are given.
class Connection {
  constructor(url) {
    this.url = validate(url);
  }
  open() {
    return this.url;
  }
}

function validate(url) {
  return url;
}

function logArgs() {
  return arguments.length;
}

function trace(label) {
  return label;
}

function connect(url) {
  const conn = Reflect.construct(Connection, [url]);
  return conn;
}

function forward() {
  Function.prototype.apply.call(logArgs, null, arguments);
  Function.prototype.call.call(trace, null, "forward");
}

module.exports = { connect, forward };
