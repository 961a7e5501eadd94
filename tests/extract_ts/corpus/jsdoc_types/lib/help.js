/**
 * Types of the other modules, for the comments below (no import at run time).
 * @typedef { import("./command.js").Command } Command
 * @typedef { import("./option.js").Option } Option
 */

class Help {
  /**
   * @param {Command} cmd
   * @returns {Option[]}
   */
  visibleOptions(cmd) {
    return cmd.listOptions().filter((o) => !o.isHidden());
  }

  /**
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {string}
   */
  formatHelp(cmd, helper) {
    const lines = helper.visibleOptions(cmd).map((o) => o.describe());
    return lines.join('\n') + helper.padding(cmd);
  }

  /**
   * @param {?Command} [cmd] - may be missing
   * @returns {number}
   */
  padding(cmd) {
    return cmd ? cmd.name().length : 0;
  }

  /** @param {import('./option.js').Option} opt */
  describeOne(opt) {
    return opt.describe();
  }
}

exports.Help = Help;
