// An object made by Object.create(proto) whose members are assigned one by one, as Express's
// response is: `this` in them is the object, so this.send() calls its own send; what it lacks
// (this.end()) is the external prototype's, not ours.
var http = require("http");

var res = Object.create(http.ServerResponse.prototype);

module.exports = res;

res.status = function status(code) {
  this.statusCode = code;
  return this;
};

res.send = function send(body) {
  this.end(body);
  return this;
};

res.json = function json(obj) {
  var body = JSON.stringify(obj);
  return this.send(body);
};

res.sendStatus = function sendStatus(code) {
  this.status(code);
  return this.send(String(code));
};
