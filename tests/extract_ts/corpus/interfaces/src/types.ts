export class User {
  greet(): string {
    return "hi";
  }
}

export interface UserRepo {
  find(id: string): User | undefined;
  all(): Promise<User[]>;
  readonly owner: User;
}

export interface AuditedRepo extends UserRepo {
  audit(): void;
}

export type Greeter = { greet(): string; readonly user: User };
