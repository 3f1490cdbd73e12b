import { DomainError } from '@alert-ingestion/http';
import { authorizeProject, parsePathId, ProjectMembership, tokenRejection } from './access-rules';

function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

const project = (accessLevel: ProjectMembership['accessLevel']): ProjectMembership => ({ projectId: 7n, tier: 'premium', accessLevel });
const user = { kind: 'user' as const, userId: 3n, username: 'dev' };

describe('tokenRejection', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const token = { userId: 1n, username: 'a', expiresAt: new Date('2026-11-22T12:00:01Z'), revokedAt: null };

  it('accepts a live token and names why others are refused', () => {
    expect(tokenRejection(token, now)).toBeNull();
    expect(tokenRejection(undefined, now)).toBe('unknown');
    expect(tokenRejection({ ...token, expiresAt: now }, now)).toBe('expired');
    expect(tokenRejection({ ...token, revokedAt: now }, now)).toBe('revoked');
  });
});

describe('authorizeProject', () => {
  it('lets a member with the role or a higher one in', () => {
    expect(authorizeProject(user, project('developer'), 'developer')).toEqual({ projectId: 7n, tier: 'premium', accessLevel: 'developer' });
    expect(authorizeProject(user, project('owner'), 'maintainer').accessLevel).toBe('owner');
  });

  it('lets the administrator into every existing project, as no member', () => {
    expect(authorizeProject({ kind: 'admin' }, project(null), 'owner')).toEqual({ projectId: 7n, tier: 'premium', accessLevel: null });
  });

  it('answers 404 for an unknown project and for a non-member, 403 for a role too low', () => {
    expect(refusal(() => authorizeProject({ kind: 'admin' }, undefined, 'guest'))).toEqual({ status: 404, code: 'project_not_found', message: 'Project not found.' });
    expect(refusal(() => authorizeProject(user, project(null), 'guest'))).toEqual({ status: 404, code: 'project_not_found', message: 'Project not found.' });
    expect(refusal(() => authorizeProject(user, project('reporter'), 'developer'))).toEqual({
      status: 403,
      code: 'insufficient_role',
      message: 'This needs at least the developer role in the project; you are reporter.',
    });
  });
});

describe('parsePathId', () => {
  it.each([
    ['1', 1n],
    ['123456789012345678', 123456789012345678n],
  ])('%s is a record id', (text, id) => expect(parsePathId(text)).toBe(id));

  it.each(['0', '01', '-1', '1.5', 'abc', '1234567890123456789', '', undefined])('%s names no record', (text) => {
    expect(parsePathId(text)).toBeUndefined();
  });
});
