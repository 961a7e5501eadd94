// A TypeScript source: an ES module (what its compiled output would flag).
export default function createStore() {
  return {};
}
export function reset() {}
