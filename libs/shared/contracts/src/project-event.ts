import { IsInt, IsISO8601, Min } from 'class-validator';

/** What every change event of a project carries besides its type and subject: when, and which project. */
export abstract class ProjectEventFields {
  @IsISO8601()
  occurred_at!: string;

  /** A number, as in the HTTP API (`/projects/:id`). */
  @IsInt()
  @Min(1)
  project_id!: number;
}
