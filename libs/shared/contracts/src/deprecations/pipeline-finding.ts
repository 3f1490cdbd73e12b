/** One finding, as the check endpoint returns it (CONTRACT.md). */
export interface PipelineFinding {
  readonly rule: string;
  readonly line: number;
  readonly message: string;
  readonly removal_milestone: string;
  readonly replacement: string | null;
}

/** A finding of the check endpoint: the checker's, plus the id of the catalogue entry its rule reads, so clients can link to it. */
export interface LinkedPipelineFinding extends PipelineFinding {
  readonly deprecation_id: string;
}
