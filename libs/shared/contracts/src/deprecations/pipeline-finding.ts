import type { HttpSchemas } from '../http';

/** One finding of the pipeline checker; the check endpoint answers it linked to its catalogue entry (LinkedPipelineFinding). */
export interface PipelineFinding {
  readonly rule: string;
  readonly line: number;
  readonly message: string;
  readonly removal_milestone: string;
  readonly replacement: string | null;
}

/** A finding of the check endpoint: the checker's, plus the id of the catalogue entry its rule reads, so clients can link to it. */
export type LinkedPipelineFinding = HttpSchemas['PipelineFindingDto'];
