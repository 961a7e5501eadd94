export class Repo {
  find(id: number) {
    return id;
  }
  save() {}
}
export class Logger {
  info(m: string) {
    console.info(m);
  }
}
