// Named function expressions written as arguments (older code names its callbacks for stack
// traces): each gets what the callee calls its parameter with, as an arrow written there does.
function createContext(request) {
  return { request, reply: sendReply };
}

function sendReply(body) {}

function logRequest(message) {}

export function route(path, handler) {
  handler(createContext(path), logRequest);
}

export function transaction(work) {
  return work(function commit() {});
}
