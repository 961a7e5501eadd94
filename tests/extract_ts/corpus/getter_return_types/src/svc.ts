class Client {
  fetch() {}
}
export class Svc {
  private _c = new Client();
  get client(): Client {
    return this._c;
  }
  set client(c: Client) {
    this._c = c;
  }
  run() {
    this.client.fetch();
  }
}
