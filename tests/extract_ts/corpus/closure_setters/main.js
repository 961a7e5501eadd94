// A variable of an outer scope assigned a parameter (`let handler; function onChange(fn) {
// handler = fn }`, also a member of one) holds what the callers of that function pass: calling
// the variable elsewhere calls it; what it was declared with stays one of its values.
function render() {}
function log() {}
function initial() {}

let handler = null;
let reporter = initial;
function onChange(fn) {
  handler = fn;
}
function configure(opts) {
  reporter = opts.report;
}
function change() {
  handler();
  reporter();
}
onChange(render);
configure({ report: log });
change();
