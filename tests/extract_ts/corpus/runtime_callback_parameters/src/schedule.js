// A callback parameter handed on to the runtime or to an array method: setTimeout(cb),
// queueMicrotask(cb), promise.then(onDone), items.forEach(visit), list.map(opts.format).
export function later(cb, ms) {
  setTimeout(cb, ms);
}

export function soon(task) {
  queueMicrotask(task);
}

export function whenLoaded(onDone) {
  fetch("/data").then(onDone);
}

export function visitAll(items, visit) {
  items.forEach(visit);
}

export function render(list, opts) {
  return list.map(opts.format);
}
