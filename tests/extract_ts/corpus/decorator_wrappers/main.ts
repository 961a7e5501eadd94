// A decorator is called with what it decorates: a class decorator with the class, a method
// decorator with the method (and, in the legacy form, a descriptor whose `value` is the method):
// a wrapper it installs calls the original through that parameter. A decorator factory's call
// (`@retry(3)`) returns the function the runtime calls. A call through a decorated method's
// name also reaches the function its decorator returns in its place (`@bound`'s wrapper), and
// a class decorator returning a class makes the decorated name one of both (`@sealed`).
function trace(): void {}
function work(): void {}

function logged(target: any, key: string, desc: PropertyDescriptor) {
  const original = desc.value;
  desc.value = function (...args: any[]) {
    trace();
    return original.apply(this, args);
  };
  return desc;
}

function bound(method: Function, context: unknown) {
  return function (this: unknown, ...args: unknown[]) {
    return method.call(this, ...args);
  };
}

function retry(times: number) {
  return function (target: any, key: string, desc: PropertyDescriptor) {
    const run = desc.value;
    for (let i = 0; i < times; i++) {
      run();
    }
  };
}

function sealed<T extends new (...args: any[]) => object>(ctor: T) {
  return class extends ctor {
    audit(): void {
      trace();
    }
  };
}

@sealed
class Store {
  load(): void {}
}

function register(cls: new () => object) {
  return new cls();
}

@register
class Plugin {
  constructor() {
    work();
  }

  @logged
  start(): void {
    work();
  }

  @bound
  stop(): void {}

  @retry(3)
  ping(): void {}
}

export function main(): void {
  const p = new Plugin();
  p.stop();
  p.start();
  const s = new Store();
  s.load();
  s.audit();
}
