import { identity, make, Store } from "./store";
const s = make<number>();
s?.add(1)?.add(2);
identity<string>("a");
let maybe: Store<string> | undefined;
maybe?.first();
const t: Store<string> = new Store<string>();
t.first?.();
