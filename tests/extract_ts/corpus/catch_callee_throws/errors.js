export class NotFound extends Error {
  report() {}
}
export class Denied extends Error {
  report() {}
}
export class Invalid extends Error {
  report() {}
}
export class Broken extends Error {
  report() {}
}
export class Timeout extends Error {
  report() {}
}
