import { Export, Job } from "../job";
import * as jobs from "../job";
import { Job as BaseJob } from "../job";

export class CsvExport extends Export {
  step(): string {
    return "csv";
  }
}

export class Staged extends jobs.Job {
  prepare(): void {
    this.helper();
  }
  helper(): void {}
}

export function main(): void {
  new CsvExport().run();
  new Export().step();
  Job.create();
}

export class Aliased extends BaseJob {
  step(): string {
    return "imported under another name";
  }
}
