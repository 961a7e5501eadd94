import { log } from "@shared";
export class Service {
  start() {
    log("start");
  }
}
