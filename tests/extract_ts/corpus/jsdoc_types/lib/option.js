class Option {
  describe() {
    return 'option';
  }

  /** @returns {boolean} */
  isHidden() {
    return false;
  }
}

exports.Option = Option;
