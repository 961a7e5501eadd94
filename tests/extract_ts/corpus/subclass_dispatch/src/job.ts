export abstract class Job {
  run(): string {
    this.prepare();
    return this.step();
  }
  prepare(): void {}
  step(): string {
    throw new Error("abstract");
  }
  static create(): string {
    return "job";
  }
}

export class Export extends Job {
  step(): string {
    return "exported";
  }
}

export class Other {
  step(): string {
    return "unrelated: same method name, not a subclass";
  }
}

export function typed(job: Job): string {
  return job.step();
}
