// The array methods whose callback comes first take the callback's `this` second:
// `xs.forEach(function (x) { this.add(x) }, this)` runs the function with `this` = the second
// argument. Only for a receiver known to be an array (a class's own `forEach` may do anything with
// it), and not for an arrow (its `this` is the enclosing one's: in `Cart.total`, the cart's).
function Cart() {
  this.items = [];
}
Cart.prototype.add = function (item) {
  this.items.push(item);
};
Cart.prototype.addAll = function (list) {
  [].concat(list).forEach(function (item) {
    this.add(item);
  }, this);
};
Cart.prototype.total = function () {
  return this.items.map((item) => this.price(item), { price: function () {} });
};
Cart.prototype.price = function (item) {
  return 1;
};

const audit = {
  check() {},
};

function verify(names) {
  return names.split(",").every(function (name) {
    return this.check(name);
  }, audit);
}

class Batch {
  forEach(fn, ctx) {}
}

function later() {
  new Batch().forEach(function () {
    this.check();
  }, audit);
}

new Cart().addAll([1]);
verify("a,b");
later();
