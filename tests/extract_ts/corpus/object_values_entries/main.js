// `Object.values(o)` and `Object.entries(o)` of an object literal of the file hold its members'
// values (an entry is [key, value]); a callback given them, with its parameter destructured
// (`([name, run]) => run()`) or not, and `for...of` reach them. Destructured parameters of
// callbacks given other arrays get their elements the same way.
function lint() {}
function test() {}
function build() {}
function deploy() {}
function notify() {}

const tasks = { lint, test };
const steps = { build, deploy: deploy };

function runAll() {
  Object.values(tasks).forEach((task) => task());
  for (const step of Object.values(steps)) step();
}

function runNamed() {
  Object.entries(tasks).forEach(([, task]) => task());
  for (const [, step] of Object.entries(steps)) step();
}

function destructured() {
  [{ onDone: notify }].forEach(({ onDone }) => onDone());
  [["x", build]].map(([, f]) => f());
}

runAll();
runNamed();
destructured();
