// Modules of kafkajs (pinned to 2.2.4 in package.json) that its public entry point does not export.

declare module 'kafkajs/src/protocol/error' {
  /** kafkajs's table of the broker's error codes: the type, its message, and whether kafkajs retries a request that got it. */
  export const errorCodes: ReadonlyArray<{ type: string; code: number; retriable: boolean; message: string }>;
}

declare module 'kafkajs/src/errors' {
  /** The answers kafkajs's consumer meets by joining its group again. */
  export function isRebalancing(error: { type?: string }): boolean;
}

declare module 'kafkajs/src/producer/sendMessages' {
  import type { Message, PartitionerArgs, RecordMetadata } from 'kafkajs';
  /** The produce loop behind every kafkajs send: partitions, groups by leader, produces, retries. */
  function createSendMessages(options: {
    logger: unknown;
    cluster: unknown;
    partitioner: (args: PartitionerArgs) => number;
    eosManager: unknown;
    retrier: <T>(attempt: (bail: (error: Error) => void, retryCount: number, retryTime: number) => Promise<T>) => Promise<T>;
  }): (record: { acks: number; timeout?: number; compression?: number; topicMessages: Array<{ topic: string; messages: Message[] }> }) => Promise<RecordMetadata[]>;
  export = createSendMessages;
}

declare module 'kafkajs/src/retry' {
  /** kafkajs's retrier factory. */
  function createRetry(options: { retries?: number; initialRetryTime?: number; maxRetryTime?: number }): <T>(attempt: (bail: (error: Error) => void, retryCount: number, retryTime: number) => Promise<T>) => Promise<T>;
  export = createRetry;
}
