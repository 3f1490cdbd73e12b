export type BodyLimitViolation =
  | { kind: 'too_large'; maxBytes: number }
  | { kind: 'too_deep'; maxDepth: number }
  | { kind: 'not_object_or_array' };

/** The most bytes a body may have, and the most levels of objects and arrays it may nest. */
export interface JsonBodyLimitOptions {
  maxBytes: number;
  maxDepth: number;
}

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Checks a JSON body chunk by chunk while it arrives, so that an oversized or absurdly nested body
 * is refused before it is buffered or parsed: size, nesting depth, and that the top level is an
 * object or an array. It does not validate JSON syntax (JSON.parse does that on the complete body);
 * it only tracks strings, so brackets inside strings do not count. Multi-byte UTF-8 sequences never
 * contain ASCII bytes, so scanning bytes is exact. The gateway checks receive bodies with it while
 * they stream in; every service's JSON body parser checks the bodies of its API with it before parsing.
 */
export class JsonBodyLimits {
  private bytes = 0;
  private depth = 0;
  private started = false;
  private inString = false;
  private escaped = false;
  private violation: BodyLimitViolation | null = null;

  constructor(private readonly options: JsonBodyLimitOptions) {}

  /** Feeds the next chunk; returns the first violation found (and keeps returning it). */
  write(chunk: Uint8Array): BodyLimitViolation | null {
    if (this.violation) return this.violation;
    this.bytes += chunk.length;
    if (this.bytes > this.options.maxBytes) {
      return (this.violation = { kind: 'too_large', maxBytes: this.options.maxBytes });
    }
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
        continue;
      }
      if (!this.started) {
        if (isJsonWhitespace(byte)) continue;
        if (byte !== OPEN_OBJECT && byte !== OPEN_ARRAY) return (this.violation = { kind: 'not_object_or_array' });
        this.started = true;
      }
      if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        this.depth++;
        if (this.depth > this.options.maxDepth) return (this.violation = { kind: 'too_deep', maxDepth: this.options.maxDepth });
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        // Unbalanced closers are a syntax error that JSON.parse reports; keep the count sane.
        if (this.depth > 0) this.depth--;
      }
    }
    return null;
  }

  /** Call once the body is complete: an empty or all-whitespace body is not an object or array. */
  end(): BodyLimitViolation | null {
    if (this.violation) return this.violation;
    if (!this.started) this.violation = { kind: 'not_object_or_array' };
    return this.violation;
  }

  /** Bytes seen so far (including those of a chunk that broke the size limit). */
  get receivedBytes(): number {
    return this.bytes;
  }
}
