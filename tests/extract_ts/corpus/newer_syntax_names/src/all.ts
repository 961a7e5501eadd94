// TS 5.0 type-only star re-export, then ordinary code the rest of the file must still yield
export type * from "./types";
export * from "./resource";

import { helper } from "./types";

export function viaAll(): number {
  return helper();
}
