// A constructor copying its options onto the instance (Object.assign(this, options), after
// defaults): the instance's methods call the callbacks the callers put in the options.
function noop() {}

export class Widget {
  constructor(options) {
    Object.assign(this, { onClose: noop }, options);
  }
  open() {
    this.onOpen();
  }
  close() {
    this.onClose();
  }
}
