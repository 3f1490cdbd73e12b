// The gateway's end-to-end specs run the whole stack from the shared harness (libs/shared/testing),
// under the names they use.
import { STACK_ADMIN_TOKEN, StackProject } from '@alert-ingestion/testing';

export { ServiceStack as Pipeline } from '@alert-ingestion/testing';
export const ADMIN_TOKEN = STACK_ADMIN_TOKEN;
export type Project = StackProject;
