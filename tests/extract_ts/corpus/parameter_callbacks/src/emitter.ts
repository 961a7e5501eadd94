// Functions pushed onto a field's array are its items: iterating the field calls them.

export class Emitter {
  private listeners: Array<() => void> = [];

  on(cb) {
    this.listeners.push(cb);
  }

  emit(): void {
    for (const l of this.listeners) l();
    this.listeners.forEach((l) => l());
  }
}

export function ping(): void {}
export function pong(): void {}

const emitter = new Emitter();
emitter.on(ping);
emitter.on(() => pong());
