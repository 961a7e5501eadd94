// The module pattern: an IIFE returning an object literal of its inner functions.
var Counter = (function () {
  var count = 0;
  function bump() {
    count += 1;
    report();
  }
  function report() {
    console.log(count);
  }
  return {
    bump: bump,
    reset: function () {
      count = 0;
      report();
    },
  };
})();

// A factory returning an object literal (shorthand members and a method).
function makeStore() {
  function save() {}
  function load() {}
  return {
    save,
    load,
    sync() {
      save();
    },
  };
}

// An arrow whose body is an object literal.
const makeLogger = () => ({ write: writeLine });
function writeLine() {}

module.exports = { Counter, makeStore, makeLogger };
