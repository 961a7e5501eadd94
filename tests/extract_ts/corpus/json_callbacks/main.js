// `JSON.parse(text, reviver)` and `JSON.stringify(value, replacer)` call the function given
// second for each key (an edge from the caller, resolution `implicit`), as `Array.from(xs, f)`
// does; an array of keys given there is no function, and a local named `JSON` is not the global.
function reviveDates(key, value) {
  return value;
}
function hideSecrets(key, value) {
  return value;
}

export function load(text) {
  return JSON.parse(text, reviveDates);
}

export function save(value) {
  return JSON.stringify(value, hideSecrets, 2);
}

export function pick(value) {
  return JSON.stringify(value, ["id", "name"]);
}

export function shadowed(text) {
  const JSON = { parse(t, f) {} };
  return JSON.parse(text, reviveDates);
}
