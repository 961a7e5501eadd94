// Members of what the callers pass: options objects, destructured parameters, instances.

export function withOptions(opts) {
  opts.onDone(); // the onDone of each object literal passed
}

export function destructured({ onDone, nested: { onFail } }) {
  onDone();
  onFail();
}

export function useStore(store) {
  store.save(); // an instance passed: its class's save
}

export class Store {
  save(): void {}
}
