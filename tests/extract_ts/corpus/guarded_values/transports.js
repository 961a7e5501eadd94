// values guarded by a feature test: `cond && value` is the value when the test passes
const hasProcess = typeof process !== "undefined";
const hasFetch = typeof fetch === "function";

export default hasProcess && function nodeTransport(request) {
  return request.url;
};

export const fetchTransport = hasFetch && hasProcess && (async (request) => request.body);
