// The same helpers imported as ES modules.
import setPrototypeOf from "setprototypeof";
import merge from "utils-merge";

const proto = {
  handle() {},
  close() {},
};

export function createHandler() {
  const handler = () => handler.handle();
  setPrototypeOf(handler, proto);
  return handler;
}

export function createMerged() {
  function merged() {
    merged.handle();
  }
  merge(merged, proto);
  return merged;
}
