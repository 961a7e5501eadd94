import { using, make } from "./resource";
import defer * as lazy from "./types";

// a function type whose only parameter is named like a predefined type (implicitly `any`)
declare const hook: { inject: (any) => void };

export function main(): number {
  const run = (r: number) => r + 1;
  return using(make, run);
}

export function later(): number {
  return lazy.helper();
}

export const alias = using;

export function viaAlias(): number {
  return alias(make, (r) => r);
}

export function usingLocal(): number {
  const using = (n: number) => n * 2;
  return using(3);
}
