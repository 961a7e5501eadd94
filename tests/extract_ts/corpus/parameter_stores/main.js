// A helper that stores a value into the object it is given, under a key it is given (or a fixed
// one): the caller's object literal gets that member, and calls of it reach the value.
function onLoad() {
  return "loaded";
}

function onSave() {
  return "saved";
}

function defaultHandler() {
  return "default";
}

function register(table, name, handler) {
  table[name] = handler;
}

function installDefault(target) {
  target.fallback = defaultHandler;
}

const routes = {};
register(routes, "load", onLoad);
register(routes, "save", onSave);
installDefault(routes);

routes.load();
routes.save();
routes.fallback();

module.exports = { routes };
