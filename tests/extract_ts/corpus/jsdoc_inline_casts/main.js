// An inline JSDoc cast, `/** @type {T} */ (expr)` (the comment right before a parenthesized
// expression), gives the value the type T, as `expr as T` does in TypeScript: a name, a dotted
// name, `import("./m").T`, `T[]`. A plain `/* ... */` comment, a parenthesis without a comment
// and a type naming nothing of ours (`{string}`, `{Object}`) leave the value unknown.
import { Help } from "./help.js";

class Command {
  createHelp() {}
}

export function render(ctx, options) {
  const helper = /** @type {Help} */ (ctx.helper);
  helper.visibleOptions();

  /** @type {Command} */ (ctx.parent).createHelp();

  const opts = /** @type {import("./help.js").Option[]} */ (options);
  opts.forEach((o) => o.describe());

  const plain = /* @type {Help} */ (ctx.other);
  plain.visibleOptions();

  const untyped = (ctx.third);
  untyped.visibleOptions();

  const text = /** @type {string} */ (ctx.name);
  text.trim();

  return /** @type {Object} */ (ctx.last).visibleOptions();
}
