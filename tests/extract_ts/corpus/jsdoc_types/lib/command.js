/** @import { Help as HelpType } from "./help.js" */
const { Help } = require('./help.js');
const { Option } = require('./option.js');

class Command {
  constructor() {
    this.options = [];
    /** @type {Option[]} */
    this.hiddenOptions = [];
  }

  hiddenNames() {
    return this.hiddenOptions.map((o) => o.describe());
  }

  name() {
    return 'cmd';
  }

  /** @returns {Option[]} */
  listOptions() {
    return this.options;
  }

  /** @returns {Help} */
  createHelp() {
    return makeHelp();
  }

  helpInformation() {
    const helper = this.createHelp();
    return helper.formatHelp(this, helper);
  }

  /**
   * @param {Option|null} opt
   * @param {string} flags
   * @param {Function} [onChange]
   */
  addOption(opt, flags, onChange) {
    opt.describe();
    flags.trim();
    if (onChange) onChange(opt);
    this.options.push(opt);
  }

  /** @param {HelpType} h */
  show(h) {
    return h.formatHelp(this, h);
  }
}

function makeHelp() {
  return Object.assign(new Help(), {});
}

/**
 * @param {Command} program
 * @param {Object} [settings]
 */
function run(program, settings) {
  program.helpInformation();
  settings.get();
}

/** @param {Help} h */
const render = (h) => h.padding();

/**
 * A function expression given to exports keeps its comment.
 * @param {Option=} opt
 */
exports.describeOption = function (opt) {
  return opt.describe();
};

function logChange(opt) {
  return opt;
}

const registry = {};

function lookup(name) {
  /** @type {Option} */
  const found = registry[name];
  return found.isHidden();
}

/**
 * A type parameter names no type: what the call returns is what it is given.
 * @template T
 * @param {T} fn
 * @returns {T}
 */
function hidden(fn) {
  return fn;
}

function quietLog() {
  return 'quiet';
}

/** @returns {Promise<Help>} a help made later */
function loadHelp() {
  return new Promise((resolve) => setTimeout(() => resolve(makeHelp()), 0));
}

loadHelp().then((h) => h.padding());

const quiet = hidden(quietLog);
quiet();

new Command().addOption(new Option(), '-v', logChange);

module.exports = { Command, run, render, lookup };
