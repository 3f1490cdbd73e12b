import { AdminRoute, AuthenticatedRoute, CurrentPrincipal, PathId, Principal } from '@alert-ingestion/access';
import { CreatedUser, CurrentUser, User } from '@alert-ingestion/contracts';
import { ApiErrorResponses, NotFoundError } from '@alert-ingestion/http';
import { CreatedUserDto, CreateUserDto, CurrentUserDto, UpdateUserDto, UserDto, UsersService } from '@alert-ingestion/integrations-feature';
import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';

/** The user `:user_id`; anything that is not an id names no user (404). */
const UserId = () => PathId('user_id', (text) => new NotFoundError(`User ${text} not found.`, 'user_not_found'));

@ApiTags('users')
@Controller('api/v4')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Admin: creates a user and returns its personal access token, shown only here. */
  @Post('users')
  @AdminRoute()
  @ApiOperation({ summary: 'Create a user and its personal access token (administrator)' })
  @ApiCreatedResponse({ type: CreatedUserDto, description: 'The user, with its personal access token (shown only here).' })
  @ApiErrorResponses(400, [409, 'The username or the email address is taken.'])
  create(@Body() body: CreateUserDto): Promise<CreatedUser> {
    return this.users.createUser(body.username, body.email);
  }

  /** Admin: sets or clears a user's email address. */
  @Put('users/:user_id')
  @AdminRoute()
  @ApiParam({ name: 'user_id', description: 'The user id.', schema: { type: 'integer', minimum: 1 } })
  @ApiOperation({ summary: "Set or clear a user's email address (administrator)" })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(400, [404, 'No such user.'], [409, 'Another user has the email address.'])
  update(@UserId() userId: bigint, @Body() body: UpdateUserDto): Promise<User> {
    return this.users.updateEmail(userId, body.email);
  }

  /** Any valid token: who it belongs to. */
  @Get('user')
  @AuthenticatedRoute()
  @ApiOperation({ summary: 'Who the token belongs to' })
  @ApiOkResponse({ type: CurrentUserDto })
  current(@CurrentPrincipal() principal: Principal): Promise<CurrentUser> {
    return this.users.currentUser(principal);
  }

  /** A user's own email address, where alert emails go. */
  @Put('user')
  @AuthenticatedRoute()
  @ApiOperation({ summary: 'Set or clear your own email address' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses([400, 'Not an email address, or the administrator token (which belongs to no user).'], [409, 'Another user has the email address.'])
  updateOwn(@CurrentPrincipal() principal: Principal, @Body() body: UpdateUserDto): Promise<User> {
    return this.users.updateOwnEmail(principal, body.email);
  }
}
