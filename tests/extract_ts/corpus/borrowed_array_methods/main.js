// Array methods borrowed through `call` / `apply` call the function they are given, whatever the
// receiver is (a NodeList, `arguments`): `Array.prototype.forEach.call(xs, f)`, `[].map.call(xs, f)`,
// `apply(xs, [f])`. A local named `Array` is not the global.
function visit(node) {}
function double(x) {
  return x * 2;
}
function keep(x) {
  return x > 1;
}
function walk(nodes) {
  Array.prototype.forEach.call(nodes, visit);
}
function twice(xs) {
  return Array.prototype.map.apply(xs, [double]);
}
function each() {
  [].forEach.call(arguments, visit);
}
function some(list) {
  return [].filter.call(list, keep).length;
}
function shadowed(Array) {
  Array.prototype.forEach.call([], visit);
}
walk(document.querySelectorAll("li"));
twice([1]);
each(1, 2);
some([4]);
