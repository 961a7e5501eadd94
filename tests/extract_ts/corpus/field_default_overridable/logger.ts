type Sink = (line: string) => void;

function consoleSink(line: string): void {
  console.log(line);
}

function silentSink(_line: string): void {}

function fileSink(line: string): void {
  writeLine(line);
}

function writeLine(line: string): void {}

export class Logger {
  private sink: Sink = consoleSink;

  constructor(quiet: boolean) {
    if (quiet) {
      this.sink = silentSink;
    }
  }

  toFile(): this {
    this.sink = fileSink;
    return this;
  }

  setSink(sink: Sink): this {
    this.sink = sink;
    return this;
  }

  info(msg: string): void {
    this.sink(`[info] ${msg}`);
  }
}
