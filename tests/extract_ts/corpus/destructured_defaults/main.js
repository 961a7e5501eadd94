// A default written inside a destructuring pattern is one of the values the name may hold:
// in a parameter (`{ cb = dflt } = {}`), in a declaration (`const { onDone = noop } = opts`)
// and in an array pattern (`[first = fallback]`); what the callers pass still counts.
function dflt() {}
function work() {}
function noop() {}
function finish() {}
function fallback() {}
function renamed() {}

function run({ cb = dflt } = {}) {
  cb();
}
run();
run({ cb: work });

function settle(opts) {
  const { onDone = noop } = opts;
  onDone();
}
settle({ onDone: finish });

function pick([first = fallback]) {
  first();
}
pick([]);

function alias({ handler: h = renamed }) {
  h();
}
alias({});

const arrow = ({ task = dflt }) => task();
arrow({});
