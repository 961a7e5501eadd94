import { Export, Job } from "../job";
import * as jobs from "../job";

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
