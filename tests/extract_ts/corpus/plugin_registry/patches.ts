import { loadPlugin } from "./registry";

function applyPatches(base: object, patches: object[]): object {
  return patches.length ? { ...base } : base;
}

function generatePatches(): object[] {
  return [];
}

export function enablePatches(): void {
  loadPlugin("Patches", { applyPatches_: applyPatches, generatePatches_: generatePatches });
}
