import { Injectable } from "./http";
@Injectable()
export class UsersService {
  findOne(id: string) {
    return { id };
  }
}
