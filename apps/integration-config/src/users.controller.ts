import { AdminRoute, AuthenticatedRoute, CurrentPrincipal, Principal } from '@alert-ingestion/access';
import { CreatedUser, CurrentUser } from '@alert-ingestion/contracts';
import { ApiErrorResponses } from '@alert-ingestion/http';
import { CreatedUserDto, CreateUserDto, CurrentUserDto, UsersService } from '@alert-ingestion/integrations-feature';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

@ApiTags('users')
@Controller('api/v4')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Admin: creates a user and returns its personal access token, shown only here. */
  @Post('users')
  @AdminRoute()
  @ApiOperation({ summary: 'Create a user and its personal access token (administrator)' })
  @ApiCreatedResponse({ type: CreatedUserDto, description: 'The user, with its personal access token (shown only here).' })
  @ApiErrorResponses(400, [409, 'The username is taken.'])
  create(@Body() body: CreateUserDto): Promise<CreatedUser> {
    return this.users.createUser(body.username);
  }

  /** Any valid token: who it belongs to. */
  @Get('user')
  @AuthenticatedRoute()
  @ApiOperation({ summary: 'Who the token belongs to' })
  @ApiOkResponse({ type: CurrentUserDto })
  current(@CurrentPrincipal() principal: Principal): CurrentUser {
    return this.users.currentUser(principal);
  }
}
