// A call of a function whose every `return` is one of its parameters gives what that call
// passes there (the one call of that callee in the scope, or several that agree; calls of it in
// one scope passing different values are not told apart, and none is known).
import { identity, defineHandlers, first } from "./util.js";

function onSave() {}
function onLoad() {}

const handlers = defineHandlers({
  start() {
    onLoad();
  },
});

function save() {
  identity(onSave)();
}

function load() {
  const h = first(onLoad, onSave);
  h();
  handlers.start();
}

save();
load();
