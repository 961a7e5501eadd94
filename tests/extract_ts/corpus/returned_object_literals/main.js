const { Counter, makeStore, makeLogger } = require('./lib/counter');

function onStart() {}
function onStop() {}
// an array of objects holding callbacks
const steps = [{ run: onStart }, { run: onStop }];

function main() {
  Counter.bump();
  Counter.reset();
  const store = makeStore();
  store.save();
  store.sync();
  makeLogger().write();
  steps.forEach(function (s) {
    s.run();
  });
  steps[1].run();
}

main();
