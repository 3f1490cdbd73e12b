import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { NotFoundError, UnauthorizedError, ForbiddenError } from '@alert-ingestion/http';
import { ACCESS_LEVELS, AccessLevel, ProjectAccessReader } from '@alert-ingestion/alerts-data';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

export const PROJECT_ACCESS_READER = Symbol('PROJECT_ACCESS_READER');

/** Minimum role for the alerts query API (CONTRACT.md: developer+). */
const MINIMUM_ACCESS: AccessLevel = 'developer';

/** Project ids are bigint: at most 18 digits keeps them inside PostgreSQL's bigint. */
const PROJECT_ID = /^[1-9][0-9]{0,17}$/;

/** The token of a request: `Authorization: Bearer <token>` or `PRIVATE-TOKEN: <token>` (CONTRACT.md). */
export function requestToken(request: Pick<Request, 'headers'>): string | undefined {
  const authorization = request.headers['authorization'];
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const privateToken = request.headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim() !== '') return privateToken.trim();
  return undefined;
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison time says nothing about the token.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Authorises `/projects/:id/...` (CONTRACT.md "Management API" semantics): no or unknown token 401;
 * unknown project, or a user who is not a member, 404; a member below Developer 403.
 * ADMIN_TOKEN may read every existing project.
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    @Inject(PROJECT_ACCESS_READER) private readonly reader: ProjectAccessReader,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const token = requestToken(request);
    if (!token) throw new UnauthorizedError('A token is required: Authorization: Bearer <token> or PRIVATE-TOKEN: <token>.');
    const projectId = String(request.params['id'] ?? '');
    const admin = this.options.adminToken !== '' && sameSecret(token, this.options.adminToken);
    if (admin) {
      if (!PROJECT_ID.test(projectId) || !(await this.reader.projectExists(projectId))) throw projectNotFound(projectId);
      return true;
    }
    if (!PROJECT_ID.test(projectId)) {
      // Still tell an unknown token apart from an unknown project.
      const access = await this.reader.projectAccess(token, '0');
      if (access.userId === null) throw new UnauthorizedError('The token is not valid.');
      throw projectNotFound(projectId);
    }
    const access = await this.reader.projectAccess(token, projectId);
    if (access.userId === null) throw new UnauthorizedError('The token is not valid.');
    if (!access.projectExists || access.accessLevel === null) throw projectNotFound(projectId);
    if (ACCESS_LEVELS.indexOf(access.accessLevel) < ACCESS_LEVELS.indexOf(MINIMUM_ACCESS)) {
      throw new ForbiddenError(`Developer access or more to project ${projectId} is required.`);
    }
    return true;
  }
}

function projectNotFound(projectId: string): NotFoundError {
  return new NotFoundError(`Project ${projectId} not found.`, 'project_not_found');
}
