export class Client {
  fetch(url: string) {
    return url;
  }
  close() {}
}
export function createClient(): Client {
  return new Client();
}
export function makeClient() {
  return new Client();
}
export async function connect(): Promise<Client> {
  return new Client();
}
