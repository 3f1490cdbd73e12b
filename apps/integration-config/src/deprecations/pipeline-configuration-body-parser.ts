import { NestExpressApplication } from '@nestjs/platform-express';

/** Content types under which POST /api/v4/deprecations/check takes the pipeline configuration as raw text. */
export const PIPELINE_CONFIGURATION_CONTENT_TYPES = ['text/yaml', 'application/yaml', 'application/x-yaml', 'text/plain'];

/**
 * Nest's express adapter parses only JSON and URL-encoded bodies by default. Call this in bootstrap
 * before `app.init()`/`listen()` so a raw YAML body reaches the check endpoint as a string; the
 * 1 MiB limit matches the receiver's body limit (CONTRACT.md), and a larger body gets 413.
 */
export function usePipelineConfigurationBodyParser(app: NestExpressApplication): void {
  app.useBodyParser('text', { type: PIPELINE_CONFIGURATION_CONTENT_TYPES, limit: '1mb' });
}
