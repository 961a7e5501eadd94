// Array methods returning one of the array's elements: find / findLast (a route table), shift (a
// middleware queue), pop (an undo stack), at (the last handler).
function home() {}
function about() {}

const routes = [
  { path: "/", handler: home },
  { path: "/about", handler: about },
];

export function route(path) {
  const match = routes.find((r) => r.path === path);
  match.handler();
  routes.findLast((r) => r.path.startsWith(path)).handler();
}

export function runQueue(middleware) {
  const queue = middleware.slice();
  function next() {
    const fn = queue.shift();
    if (fn) fn(next);
  }
  next();
}

export class History {
  constructor() {
    this.undos = [];
  }
  record(action) {
    this.undos.push(action);
  }
  undo() {
    const last = this.undos.pop();
    last.revert();
  }
}

export function lastOf(handlers) {
  handlers.at(-1)();
}
