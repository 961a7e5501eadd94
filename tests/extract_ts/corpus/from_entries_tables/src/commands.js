// A table of functions built with Object.fromEntries from [key, function] pairs: its members are
// the pairs' values under their keys.
function start() {}

function stop() {}

function status() {}

export const commands = Object.fromEntries([
  ["start", start],
  ["stop", stop],
  ["status", status],
]);

export function run(name) {
  commands[name]();
}
