// Builtin callbacks on arrays the caller passes: `sort` comparators, `reduce` reducers (also a
// reducer calling each element), `find` predicates.
function byName(a, b) {
  return a.name < b.name ? -1 : 1;
}
function add(acc, x) {
  return acc + x;
}
function isBig(x) {
  return x > 10;
}
function inc(x) {
  return x + 1;
}
function sq(x) {
  return x * x;
}
function sortPeople(people) {
  return people.slice().sort(byName);
}
function total(nums) {
  return nums.reduce(add, 0);
}
function pipeline(x) {
  return [inc, sq].reduce((v, fn) => fn(v), x);
}
function firstBig(nums) {
  return nums.find(isBig);
}
function chooser() {
  return [inc, sq].find((f) => f(2) > 3);
}
sortPeople([{ name: "b" }]);
total([1, 2]);
pipeline(3);
firstBig([4]);
chooser();
