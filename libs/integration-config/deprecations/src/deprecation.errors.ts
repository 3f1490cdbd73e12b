/**
 * Errors of the deprecation catalogue; plain TypeScript, like the rest of the domain.
 * DeprecationInputError and its subclasses are the caller's fault: DeprecationsService turns them
 * into 400 `{error, message}` and the CLI into exit code 1. CatalogueError is ours and stops start-up.
 */

/** Bad input from a caller: a malformed milestone, a reversed range, an unknown filter, invalid YAML. */
export abstract class DeprecationInputError extends Error {
  constructor(
    /** Stable snake_case code for the `error` field of `{error, message}`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidMilestoneError extends DeprecationInputError {
  constructor(
    readonly parameter: string,
    readonly given: string,
  ) {
    super('invalid_milestone', `${parameter} must be a milestone written as MAJOR.MINOR (for example 15.10), got ${JSON.stringify(given)}`);
  }
}

export class InvalidUpgradeRangeError extends DeprecationInputError {
  constructor(message: string) {
    super('invalid_range', message);
  }
}

export class InvalidDeprecationQueryError extends DeprecationInputError {
  constructor(message: string) {
    super('invalid_query', message);
  }
}

/** The pipeline configuration is not valid YAML (or not a YAML mapping); `line` is the parser's 1-based line. */
export class InvalidPipelineYamlError extends DeprecationInputError {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super('invalid_yaml', `Invalid YAML at line ${line}, column ${column}: ${reason}`);
  }
}

/** A catalogue file that does not satisfy the catalogue format; names the file, the field and its line. */
export class CatalogueError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`Deprecation catalogue ${file}${line === null ? '' : `:${line}`}: ${field}: ${reason}`);
    this.name = 'CatalogueError';
  }
}
