import { getPlugin } from "./registry";
import { enablePatches } from "./patches";

export function applyAll(base: object, patches: object[]): object {
  return getPlugin("Patches").applyPatches_(base, patches);
}

export function record(): object[] {
  return getPlugin("Patches").generatePatches_();
}

enablePatches();
