function dflt() {}
function other() {}
function run(cb = dflt) {
  cb();
}
run();
const arrow = (fn = dflt) => fn();
arrow(other);
class Runner {
  go(handler = other) {
    handler();
  }
}
new Runner().go();
