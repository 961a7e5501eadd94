// Several calls of one helper returning its parameter in the same scope: each call's result is
// what that call passes (`const a = id(f); const b = id(g)`), so `a()` calls f only.
import * as h from "./helpers.js";
import { defineHandler, traced } from "./helpers.js";

function id(x) {
  return x;
}

function onOpen() {}
function onClose() {}
function load() {}
function save() {}
function render() {}

function openOnly() {
  const open = id(onOpen);
  const close = id(onClose);
  open();
  return close;
}

function closeOnly() {
  const open = defineHandler(onOpen);
  const close = defineHandler(onClose);
  close();
  return open;
}

function tracedLoad() {
  const l = traced("load", load);
  const s = traced("save", save);
  const r = h.defineHandler(render);
  l();
  r();
  return s;
}

openOnly();
closeOnly();
tracedLoad();
