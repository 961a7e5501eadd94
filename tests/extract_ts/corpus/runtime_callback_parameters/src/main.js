import { later, render, soon, visitAll, whenLoaded } from "./schedule";

function tick() {}

function flush() {}

function show(data) {}

function visitNode(node) {}

function upper(s) {
  return s.toUpperCase();
}

later(tick, 100);
soon(flush);
whenLoaded(show);
visitAll([1, 2], visitNode);
render(["a"], { format: upper });
