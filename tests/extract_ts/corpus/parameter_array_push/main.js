// Functions pushed onto an array given as a parameter: the callers' arrays hold them (the
// function registering is one of this file, the array a local literal of the caller); iterating
// the caller's array reaches what each call pushed, and only its own.
function a() {}
function b() {}
function c() {}

function register(list, fn) {
  list.push(fn);
}

function addDefault(list) {
  list.push(c);
}

function setup() {
  const hooks = [];
  register(hooks, a);
  addDefault(hooks);
  hooks.forEach((h) => h());
}

const others = [];
register(others, b);
for (const h of others) h();
