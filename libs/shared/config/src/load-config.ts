import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** A bad or missing environment variable. The message names every offending variable. */
export class ConfigurationError extends Error {
  constructor(readonly variables: string[], details: string[]) {
    super(`Invalid configuration: ${details.join('; ')}`);
    this.name = 'ConfigurationError';
  }
}

/**
 * Builds a typed configuration from the environment, once, at start-up. Defaults live on the
 * class (so `npm start` works with no configuration); class-validator decorators say what is valid.
 * Unknown variables are ignored: the environment holds far more than any one service needs.
 */
export function loadConfig<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new schema() as Record<string, unknown>;
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    if (value !== undefined && value !== '') given[key] = value;
  }
  const config = plainToInstance(schema, { ...defaults, ...given }, { enableImplicitConversion: true });
  const errors = validateSync(config, { whitelist: false });
  if (errors.length > 0) {
    const details = errors.map(
      (error) => `${error.property}=${JSON.stringify(given[error.property] ?? defaults[error.property])}: ${Object.values(error.constraints ?? {}).join(', ')}`,
    );
    throw new ConfigurationError(
      errors.map((error) => error.property),
      details,
    );
  }
  return config;
}

/**
 * loadConfig for main.ts: a bad environment prints the message naming the offending variables and
 * exits 1, so the service fails fast before anything starts.
 */
export function loadConfigOrExit<T extends object>(schema: new () => T): T {
  try {
    return loadConfig(schema);
  } catch (error) {
    console.error(error instanceof ConfigurationError ? error.message : error);
    process.exit(1);
  }
}
