export class Repo {
  async load(id: string): Promise<Item> {
    return new Item(id);
  }
}
export class Item {
  constructor(public id: string) {}
  async save() {
    return this;
  }
}
export async function getRepo(): Promise<Repo> {
  return new Repo();
}
