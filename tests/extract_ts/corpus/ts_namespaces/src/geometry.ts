export namespace Geometry {
  export function area(w: number, h: number) {
    return w * h;
  }
  export class Rect {
    constructor(public w: number, public h: number) {}
    area() {
      return area(this.w, this.h);
    }
  }
  export const unit = new Rect(1, 1);
  log("loaded");
}
function log(m: string) {
  console.log(m);
}
