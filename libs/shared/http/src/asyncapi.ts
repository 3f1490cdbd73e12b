import type { INestApplication } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';

/** Where alert-processor and integration-config serve the AsyncAPI document of every topic. */
export const ASYNCAPI_DOCUMENT_PATH = '/api/v4/asyncapi.json';

/** The document in the repository (and in the services' image): written by tools/asyncapi, checked by `npm test`. */
export const ASYNCAPI_DOCUMENT_FILE = join('docs', 'asyncapi', 'asyncapi.json');

/** A file of the repository, looked for from `from` upwards: the source tree, the build (dist/) and the image alike. */
export function repositoryFile(relativePath: string, from: string = __dirname): string {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, relativePath);
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) throw new Error(`${relativePath} was not found above ${from}`);
  }
}

interface ChannelLike {
  address?: string;
  bindings?: { kafka?: { topic?: string } };
}

/**
 * The AsyncAPI document as this deployment's topics are named: each channel's address (and Kafka
 * binding) with KAFKA_TOPIC_PREFIX in front, empty in production.
 */
export function asyncApiDocument(topicPrefix: string, file: string = repositoryFile(ASYNCAPI_DOCUMENT_FILE)): Record<string, unknown> {
  const document = JSON.parse(readFileSync(file, 'utf8')) as { channels?: Record<string, ChannelLike> };
  for (const channel of Object.values(document.channels ?? {})) {
    if (channel.address) channel.address = `${topicPrefix}${channel.address}`;
    if (channel.bindings?.kafka?.topic) channel.bindings.kafka.topic = `${topicPrefix}${channel.bindings.kafka.topic}`;
  }
  return document;
}

/** Serves asyncApiDocument at ASYNCAPI_DOCUMENT_PATH. Call before `app.init()`, so the route comes before the not-found handler. */
export function serveAsyncApi(app: INestApplication, topicPrefix: string): void {
  const text = JSON.stringify(asyncApiDocument(topicPrefix));
  app.getHttpAdapter().get(ASYNCAPI_DOCUMENT_PATH, (_request: unknown, response: ServerResponse) => {
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(text);
  });
}
