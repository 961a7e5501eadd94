import { create, use } from "./store";

interface Counter {
  count: number;
  inc: () => void;
}

const counter = create<Counter>((set, get) => ({
  count: 0,
  inc: () => set({ count: get().count + 1 }),
}));

counter.inc();

use((next) => {
  next();
});
