import { AdminRoute, CreatedUser, CreateUserDto, UsersService } from '@alert-ingestion/integrations-feature';
import { Body, Controller, Post } from '@nestjs/common';

@Controller('api/v4/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Admin: creates a user and returns its personal access token, shown only here. */
  @Post()
  @AdminRoute()
  create(@Body() body: CreateUserDto): Promise<CreatedUser> {
    return this.users.createUser(body.username);
  }
}
