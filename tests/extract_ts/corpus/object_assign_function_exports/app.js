// A CommonJS package exporting a function with members attached by `Object.assign(fn, {...})`:
// what Object.assign returns is its first argument itself, so the export is callable
// (`createApp()`) and has the members given (`createApp.Router`, `createApp.json()`).
function createApp() {
  return new Router();
}

function json() {}

class Router {
  use() {}
}

module.exports = Object.assign(createApp, { Router, json });
