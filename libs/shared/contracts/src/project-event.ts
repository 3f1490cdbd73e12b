import { IsInt, IsISO8601, Min } from 'class-validator';
import { Timestamp } from './json-types';

/** What every change event of a project carries besides its type and subject: when, and which project. */
export abstract class ProjectEventFields {
  @IsISO8601()
  occurred_at!: Timestamp;

  /** A number, as in the HTTP API (`/projects/:id`). @asType integer @minimum 1 */
  @IsInt()
  @Min(1)
  project_id!: number;
}
