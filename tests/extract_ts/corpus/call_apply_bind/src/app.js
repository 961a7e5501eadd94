// f.call(thisArg, ...) and f.apply(thisArg, args) call f; f.bind(thisArg) does not, but the
// function it makes calls f.
import { log, format } from "../src/util";

export function Animal(name) {
  this.name = name;
}

export function Dog(name) {
  Animal.call(this, name); // ES5 inheritance: a call of Animal
}

export function report(values) {
  log.apply(null, ["start"]);
  const fmt = format.bind(null);
  values.forEach(fmt); // fmt runs format
  return format.call(undefined, 1);
}

export class Button {
  constructor() {
    this.handle = this.handle.bind(this); // binding: not a call
  }
  handle() {
    log("click");
  }
  click() {
    this.handle();
  }
}

export class Phone {
  call(number) {
    log(number);
  }
}

export function dial(phone) {
  new Phone().call("123"); // Phone's own call method
}
