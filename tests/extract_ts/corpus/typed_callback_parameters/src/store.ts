// A store factory whose initialiser parameter is typed by an alias or an interface with a call
// signature (zustand's `createState: StateCreator<T>`): the function written as the argument gets
// what the factory calls its parameter with.
export type SetState<T> = (partial: Partial<T>) => void;
export type StateCreator<T> = (set: SetState<T>, get: () => T) => T;

export interface Middleware {
  (next: () => void): void;
}

export function create<T>(createState: StateCreator<T>): T {
  let state: T;
  const setState: SetState<T> = (partial) => {
    state = { ...state, ...partial };
    notify();
  };
  const getState = () => state;
  state = createState(setState, getState);
  return state;
}

function notify() {}

function proceed() {}

export function use(mw: Middleware) {
  mw(proceed);
}
