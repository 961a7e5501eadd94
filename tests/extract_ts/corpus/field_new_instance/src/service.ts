import { Repo, Logger } from "./db";
export class UserService {
  private repo: Repo;
  private logger;
  constructor(repo: Repo) {
    this.repo = repo;
    this.logger = new Logger();
  }
  get(id: number) {
    this.logger.info("get");
    return this.repo.find(id);
  }
}
