// Symbols a package shares between its modules, imported as a namespace by the others.
export const kInit = Symbol("init");
export const kDispose = Symbol.for("app.dispose");
