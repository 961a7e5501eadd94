import { kStop } from "./symbols";
import { Task, hooks } from "./task";
import { kRun } from "./symbols";

export function main(): void {
  const t = new Task();
  t.start();
  t[kStop]();
  hooks[kRun]();
}
