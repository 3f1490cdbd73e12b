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

declare module 'kafkajs/src/network/requestQueue' {
  /** The queue of one broker connection's requests: those in flight, and those waiting (throttled, or over maxInFlightRequests). */
  class RequestQueue {
    constructor(options: {
      maxInFlightRequests: number | null;
      requestTimeout: number;
      enforceRequestTimeout: boolean;
      clientId: string;
      broker: string;
      logger: { debug(...args: unknown[]): void; info(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void };
    });
    /** Requests waiting to be sent. */
    pending: unknown[];
    /** The timer of the next look at `pending`, while one is armed. */
    throttleCheckTimeoutId: NodeJS.Timeout | null;
    /** Sends what may be sent of `pending`, then arms the next look (scheduleCheckPendingRequests). */
    checkPendingRequests(): void;
    scheduleCheckPendingRequests(): void;
    /** Clears its timers (the connection is closing). */
    destroy(): void;
    /** Resolves once no request is in flight or waiting (a disconnecting connection waits for it). */
    waitForPendingRequests(): Promise<void>;
  }
  export = RequestQueue;
}

declare module 'kafkajs/src/protocol/requests/fetch/*/response' {
  /** An aborted transaction of a fetched partition, as the broker lists it. */
  export interface AbortedTransaction {
    producerId: string;
    firstOffset: string;
  }
  /** A fetched record as kafkajs decodes it from a record batch: enough to tell whether an aborted transaction holds it. */
  export interface FetchedRecord {
    offset: string;
    key: Buffer | null;
    /** A transaction marker (kafkajs leaves these out of what it hands to the application). */
    isControlRecord: boolean;
    batchContext: { producerId: string; inTransaction: boolean };
  }
  export interface FetchResponse {
    responses: Array<{ topicName: string; partitions: Array<{ partition: number; abortedTransactions: AbortedTransaction[]; messages: FetchedRecord[] }> }>;
  }
  /** One fetch version's response module: kafkajs's connection decodes each answer with its `decode`, looked up at every answer. */
  export interface FetchResponseModule {
    decode(rawData: Buffer): Promise<FetchResponse>;
    parse(response: FetchResponse): Promise<FetchResponse>;
  }
  const responseModule: FetchResponseModule;
  export default responseModule;
}
