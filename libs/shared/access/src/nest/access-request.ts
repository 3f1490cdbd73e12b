import type { Request } from 'express';
import { Principal, ProjectAccess } from '../principal';

/** A request as the access guards leave it. */
export interface AccessRequest extends Request {
  principal?: Principal;
  projectAccess?: ProjectAccess;
}
