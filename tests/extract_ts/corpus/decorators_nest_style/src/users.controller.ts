import { Controller, Get, Param } from "./http";
import { UsersService } from "./users.service";
@Controller("users")
export class UsersController {
  constructor(private readonly users: UsersService) {}
  @Get(":id")
  find(@Param("id") id: string) {
    return this.users.findOne(id);
  }
}
