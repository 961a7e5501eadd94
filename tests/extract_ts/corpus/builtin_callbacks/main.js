// Builtins that call the functions they are given: Array.from's mapping function, array
// methods on what is known to be an array (new Array(n), s.split(), fill/flat results, a
// variable bound to one, a parameter given arrays), and forEach of a new Set / new Map.
function double(x) { return x * 2; }
function cmp(a, b) { return a - b; }
function sum(acc, x) { return acc + x; }
function isOdd(x) { return x % 2; }
function visit(v) {}
const xs = [3, 1, 2];
function a() { Array.from(xs, double); }
function b() { Array.from({ length: 3 }, double); }
function c() { xs.sort(cmp); xs.reduce(sum, 0); xs.find(isOdd); }
function d() { new Array(3).fill(0).forEach(visit); }
function e() { xs.concat([4]).forEach(visit); }
function f() { new Set(xs).forEach(visit); new Map().forEach(visit); }
function g() { "abc".split("").map(double); }
function h(list) { list.forEach(visit); }
function j() { xs.flat().forEach(visit); [...xs].reverse().map(double); }
function k() { const copy = Array.from(xs); copy.sort(cmp); }
function l() { Object.entries({a: 1}).forEach(visit); JSON.parse("[]").forEach(visit); }
function m() { const seen = new Set(); seen.forEach(visit); }
h([visit]);
