function info() {}
Object.assign(exports, { info });
