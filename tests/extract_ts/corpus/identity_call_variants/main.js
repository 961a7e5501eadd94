// Calls of a helper returning its parameter, each call's result its own argument: called at
// once (`id(f)(); return id(g);`, `h.id(f)(); h.id(g)();`), a member callee (`h.id(f)`), and
// a plain assignment to a declared variable (`a = id(f)`).
import { h } from "./helpers.js";

function id(x) {
  return x;
}

function onOpen() {}
function onClose() {}
function load() {}
function save() {}
function render() {}
function paint() {}

function atOnce() {
  id(onOpen)();
  return id(onClose);
}

function bothAtOnce() {
  h.id(onOpen)();
  h.id(onClose)();
}

function member() {
  const a = h.id(load);
  const b = h.id(save);
  a();
  return b;
}

function assigned() {
  let r;
  let p;
  r = id(render);
  p = id(paint);
  r();
  return p;
}

atOnce();
bothAtOnce();
member();
assigned();
