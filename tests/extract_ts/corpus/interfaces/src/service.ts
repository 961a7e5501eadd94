import type { AuditedRepo, Greeter, UserRepo } from "./types";

export class Service {
  constructor(private repo: UserRepo) {}

  async greetAll(): Promise<void> {
    this.repo.find("1")?.greet();
    this.repo.owner.greet();
    const users = await this.repo.all();
    users.forEach((u) => u.greet());
  }
}

export function audit(r: AuditedRepo): void {
  r.audit();
  r.find("2");
}

export function hello(g: Greeter): string {
  g.user.greet();
  return g.greet();
}
