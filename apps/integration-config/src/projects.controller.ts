import {
  AdminProjectRoute,
  AdminRoute,
  AuthenticatedRoute,
  CurrentPrincipal,
  CurrentProject,
  PathId,
  Principal,
  ProjectAccess,
  ProjectRoute,
} from '@alert-ingestion/access';
import { Member, Project, ProjectWithAccess, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { ApiErrorResponses, ApiPageResponse, pageRequest, paginationHeaders } from '@alert-ingestion/http';
import {
  AddMemberDto,
  CreateProjectDto,
  ListProjectsQueryDto,
  MemberCandidate,
  MemberCandidateDto,
  MemberCandidatesQueryDto,
  MemberDto,
  memberNotFound,
  ProjectDto,
  ProjectsService,
  ProjectWithAccessDto,
  UpdateMemberDto,
  UpdateProjectDto,
} from '@alert-ingestion/integrations-feature';
import { applyDecorators, Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** The member `:user_id`; anything that is not an id names no member (404). */
const MemberUserId = () => PathId('user_id', memberNotFound);

/** A route of one member: admin or owner (ProjectRoute). */
const MemberRoute = () =>
  applyDecorators(
    ApiParam({ name: 'user_id', description: "The member's user id.", schema: { type: 'integer', minimum: 1 } }),
    ProjectRoute(REQUIRED_ACCESS_LEVEL.manageMembers),
  );

/**
 * Projects and their members (CONTRACT.md "Management API"). The access decorators (AdminRoute,
 * ProjectRoute...) document the token headers and their 401/403/404; each route adds its answer and
 * the errors of its own (400 for a body or query that fails validation, 409 for conflicts).
 */
@ApiTags('projects')
@Controller('api/v4/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @AdminRoute()
  @ApiOperation({ summary: 'Create a project (administrator)' })
  @ApiCreatedResponse({ type: ProjectDto })
  @ApiErrorResponses(400, [409, 'A project with this path exists.'])
  create(@Body() body: CreateProjectDto): Promise<Project> {
    return this.projects.createProject(body.path, body.tier);
  }

  /** The caller's projects (the administrator: all), by path, with GitLab's pagination headers. */
  @Get()
  @AuthenticatedRoute()
  @ApiOperation({ summary: "List the caller's projects (the administrator: all)" })
  @ApiPageResponse(ProjectWithAccessDto, 'One page of projects, by path.')
  @ApiErrorResponses(400)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListProjectsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ProjectWithAccess[]> {
    const { page, perPage } = pageRequest(query);
    const result = await this.projects.listProjects(principal, { search: query.search, page, perPage });
    response.set(paginationHeaders(result.page));
    return result.projects;
  }

  @Get(':id')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readProject)
  @ApiOperation({ summary: 'Get a project' })
  @ApiOkResponse({ type: ProjectWithAccessDto })
  get(@CurrentProject() project: ProjectAccess): Promise<ProjectWithAccess> {
    return this.projects.getProject(project);
  }

  /** Admin: changes the tier; every integration of the project is republished with it. */
  @Put(':id')
  @AdminProjectRoute()
  @ApiOperation({ summary: 'Change the tier of a project (administrator)' })
  @ApiOkResponse({ type: ProjectDto })
  @ApiErrorResponses(400)
  updateTier(@CurrentProject() project: ProjectAccess, @Body() body: UpdateProjectDto): Promise<Project> {
    return this.projects.updateTier(project.projectId, body.tier);
  }

  @Get(':id/members')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.listMembers)
  @ApiOperation({ summary: 'List the members of a project' })
  @ApiOkResponse({ type: [MemberDto] })
  listMembers(@CurrentProject() project: ProjectAccess): Promise<Member[]> {
    return this.projects.listMembers(project.projectId);
  }

  /**
   * Who can be added (admin or owner, who add members): users who are not members, by username
   * search, at most 20, as GitLab's member picker searches users. The console resolves the username
   * picked to the `user_id` that POST takes.
   */
  @Get(':id/members/candidates')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageMembers)
  @ApiOperation({ summary: 'Search the users who can be added as members (administrator or owner)' })
  @ApiOkResponse({ type: [MemberCandidateDto], description: 'At most 20 users who are not members, by username (those that start with the search first).' })
  @ApiErrorResponses(400)
  memberCandidates(@CurrentProject() project: ProjectAccess, @Query() query: MemberCandidatesQueryDto): Promise<MemberCandidate[]> {
    return this.projects.memberCandidates(project.projectId, query.search?.trim() ?? '');
  }

  @Post(':id/members')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageMembers)
  @ApiOperation({ summary: 'Add a member to a project (administrator or owner)' })
  @ApiCreatedResponse({ type: MemberDto })
  @ApiErrorResponses(400, [404, 'No such user.'], [409, 'The user is already a member.'])
  addMember(@CurrentProject() project: ProjectAccess, @Body() body: AddMemberDto): Promise<Member> {
    return this.projects.addMember(project.projectId, BigInt(body.user_id), body.access_level);
  }

  @Put(':id/members/:user_id')
  @MemberRoute()
  @ApiOperation({ summary: "Change a member's role (administrator or owner)" })
  @ApiOkResponse({ type: MemberDto })
  @ApiErrorResponses(400, [404, 'The user is not a member.'], [409, 'The last owner cannot be demoted.'])
  updateMember(@CurrentProject() project: ProjectAccess, @MemberUserId() userId: bigint, @Body() body: UpdateMemberDto): Promise<Member> {
    return this.projects.updateMember(project.projectId, userId, body.access_level);
  }

  @Delete(':id/members/:user_id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @MemberRoute()
  @ApiOperation({ summary: 'Remove a member (administrator or owner)' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrorResponses([404, 'The user is not a member.'], [409, 'The last owner cannot be removed.'])
  removeMember(@CurrentProject() project: ProjectAccess, @MemberUserId() userId: bigint): Promise<void> {
    return this.projects.removeMember(project.projectId, userId);
  }
}
