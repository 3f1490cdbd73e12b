import {
  AddMemberDto,
  AdminProjectRoute,
  AdminRoute,
  CreateProjectDto,
  CurrentProject,
  MemberJson,
  ProjectAccess,
  ProjectJson,
  ProjectRoute,
  ProjectsService,
  UpdateProjectDto,
} from '@alert-ingestion/integrations-feature';
import { Body, Controller, Post, Put } from '@nestjs/common';

@Controller('api/v4/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @AdminRoute()
  create(@Body() body: CreateProjectDto): Promise<ProjectJson> {
    return this.projects.createProject(body.path, body.tier);
  }

  /** Admin: changes the tier; every integration of the project is republished with it. */
  @Put(':id')
  @AdminProjectRoute()
  updateTier(@CurrentProject() project: ProjectAccess, @Body() body: UpdateProjectDto): Promise<ProjectJson> {
    return this.projects.updateTier(project.projectId, body.tier);
  }

  /** Admin or owner. */
  @Post(':id/members')
  @ProjectRoute('owner')
  addMember(@CurrentProject() project: ProjectAccess, @Body() body: AddMemberDto): Promise<MemberJson> {
    return this.projects.addMember(project.projectId, BigInt(body.user_id), body.access_level);
  }
}
