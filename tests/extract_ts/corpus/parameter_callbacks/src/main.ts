import { run, apply, forward, reassigned, Emitter, Task } from "./runner";
import { run as otherRun, never } from "./other";
import * as lib from "external-lib";

export function double(n: number): number {
  return n * 2;
}

export function task(): number {
  return 1;
}

export function later(): number {
  return 2;
}

class View {
  handle(n: number): void {}

  mount(e: Emitter): void {
    e.on(this.handle);
  }
}

export function main(): void {
  run(task);
  run(() => double(3));
  apply(double, 2);
  forward(later);
  reassigned(task);
  otherRun(never);
  run(lib.unknownThing); // external: no edge
  new View().mount(new Emitter());
}

export function onDone(): void {}

export function schedule(): Task {
  return new Task("t", onDone);
}
