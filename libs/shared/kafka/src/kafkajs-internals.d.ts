// Modules of kafkajs (pinned to 2.2.4 in package.json) that its public entry point does not export.

declare module 'kafkajs/src/protocol/error' {
  /** kafkajs's table of the broker's error codes: the type, its message, and whether kafkajs retries a request that got it. */
  export const errorCodes: ReadonlyArray<{ type: string; code: number; retriable: boolean; message: string }>;
}

declare module 'kafkajs/src/errors' {
  /** The answers kafkajs's consumer meets by joining its group again. */
  export function isRebalancing(error: { type?: string }): boolean;
}
