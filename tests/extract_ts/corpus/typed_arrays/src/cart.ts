export class Item {
  render() {}
  hide() {}
  show() {}
  size() {
    return 1;
  }
}
export class Cart {
  items: Item[] = [];
  extra: Array<Item> = [];
  all(): readonly Item[] {
    return this.items;
  }
  draw() {
    for (const it of this.items) {
      it.render();
    }
    this.extra[0].hide();
    for (const k in this.items) {
      k.show();
    }
    this.all().forEach((i) => i.size());
  }
}
