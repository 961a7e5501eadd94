// Symbols shared by the modules of a package: member keys no string can collide with.
export const kRun = Symbol("run");
export const kStop = Symbol.for("pkg.stop");
