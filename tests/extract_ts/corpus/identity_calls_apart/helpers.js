// Helpers returning one of their parameters (kept for typing or debugging).
export function defineHandler(handler) {
  return handler;
}

export function traced(label, fn) {
  console.debug(label);
  return fn;
}
