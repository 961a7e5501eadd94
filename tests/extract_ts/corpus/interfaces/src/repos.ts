import { AuditedRepo, Greeter, User, UserRepo } from "./types";

export class MemoryRepo implements UserRepo {
  owner = new User();
  find(id: string): User | undefined {
    return undefined;
  }
  async all(): Promise<User[]> {
    return [];
  }
}

export class LoggedRepo extends MemoryRepo {
  find(id: string): User | undefined {
    return super.find(id);
  }
}

export class Audited implements AuditedRepo {
  owner = new User();
  find(id: string): User | undefined {
    return undefined;
  }
  async all(): Promise<User[]> {
    return [];
  }
  audit(): void {}
}

export class Unrelated {
  find(id: string): User | undefined {
    return undefined;
  }
}

export class Friendly implements Greeter {
  user = new User();
  greet(): string {
    return "hello";
  }
}
