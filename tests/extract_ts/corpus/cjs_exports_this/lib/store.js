// An object literal exported whole: its methods called through the object see it as `this`.
module.exports = {
  items: [],
  add(item) {
    this.items.push(item);
    this.save();
  },
  save() {},
};
