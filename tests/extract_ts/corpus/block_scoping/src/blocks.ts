import { log } from "./log";
class A {
  run() {}
}
class B {
  run() {}
  stop() {}
}
export function main(flag: boolean) {
  if (flag) {
    const log = (m: string) => m;
    log("inner");
    const x = new A();
    x.run();
  } else {
    const x = new B();
    x.stop();
  }
  log("outer");
  for (const log of [1]) {
    console.log(log);
  }
  try {
    log("try");
  } catch (log) {
    log.message;
  }
  var hoisted = new B();
  {
    var inBlock = new A();
  }
  hoisted.run();
  inBlock.run();
}
