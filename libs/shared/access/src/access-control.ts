import { AccessLevel } from '@alert-ingestion/contracts';
import { secretMatchesSha256, sha256Hex } from '@alert-ingestion/crypto';
import { AccessErrors } from './access-errors';
import { AccessReader } from './access-reader';
import { authorizeProject, parsePathId, tokenRejection } from './access-rules';
import { presentedToken, RequestHeaders } from './presented-token';
import { Principal, ProjectAccess } from './principal';

/**
 * Authentication and project authorisation for every service's HTTP API: the same header
 * precedence, the same rules and the same refusals everywhere (see AccessErrors).
 */
export class AccessControl {
  private readonly adminTokenSha256: string | null;

  constructor(
    private readonly reader: AccessReader,
    adminToken: string,
  ) {
    // An empty ADMIN_TOKEN would let an empty token in; it names no administrator instead.
    this.adminTokenSha256 = adminToken === '' ? null : sha256Hex(adminToken);
  }

  /** Who sent the request: 401 without a token, or for an unknown, expired or revoked one. */
  async authenticate(headers: RequestHeaders, now = new Date()): Promise<Principal> {
    const token = presentedToken(headers);
    if (token === undefined) throw AccessErrors.tokenRequired();
    if (this.adminTokenSha256 !== null && secretMatchesSha256(token, this.adminTokenSha256)) return { kind: 'admin' };
    // Looked up by SHA-256: an index lookup on a digest reveals nothing usable about the token.
    const stored = await this.reader.accessToken(sha256Hex(token));
    const rejection = tokenRejection(stored, now);
    if (rejection !== null || !stored) throw AccessErrors.tokenRejected(rejection ?? 'unknown');
    return { kind: 'user', userId: stored.userId, username: stored.username };
  }

  /** 403 for anyone but the administrator. */
  requireAdmin(principal: Principal): void {
    if (principal.kind !== 'admin') throw AccessErrors.adminOnly();
  }

  /** The project named by a path id, if the principal has at least `required` in it (404 / 403 otherwise). */
  async projectAccess(principal: Principal, projectIdText: unknown, required: AccessLevel): Promise<ProjectAccess> {
    const projectId = parsePathId(projectIdText);
    const project = projectId === undefined ? undefined : await this.reader.projectMembership(projectId, principal.kind === 'user' ? principal.userId : null);
    return authorizeProject(principal, project, required);
  }
}
