export class Help {
  visibleOptions() {
    return [];
  }
}

export class Option {
  describe() {}
}
