// A table of functions walked with Object.values / Object.entries / Object.keys or for...in:
// each value the walk gives is one of the table's members.
function lint() {}
function test() {}
function build() {}

const tasks = {
  lint,
  test: test,
  build() {
    build();
  },
};

function runAllValues() {
  Object.values(tasks).forEach((task) => task());
}

function runAllEntries() {
  for (const [name, task] of Object.entries(tasks)) {
    task(name);
  }
}

function runAllKeys() {
  Object.keys(tasks).forEach((key) => {
    tasks[key]();
  });
}

function runAllIn() {
  for (var key in tasks) {
    if (Object.prototype.hasOwnProperty.call(tasks, key)) tasks[key]();
  }
}

const hooks = {};
hooks.start = lint;
hooks["stop"] = test;

function fireAll() {
  for (const hook of Object.values(hooks)) hook();
}

// A literal spreading the table has its keys too; data members are no functions.
function deploy() {}
const pipeline = { ...tasks, deploy, retries: 3 };

function runPipeline() {
  Object.entries(pipeline).forEach(([name, step]) => {
    if (typeof step === "function") step();
  });
}

function main() {
  runAllValues();
  runAllEntries();
  runAllKeys();
  runAllIn();
  fireAll();
  runPipeline();
}
main();
