import { BadRequestError, PayloadTooLargeError } from '@alert-ingestion/http';
import { PassThrough, Readable } from 'node:stream';
import { readAlertBody, RequestAbortedError } from './read-alert-body';

const MiB = 1024 * 1024;

describe('readAlertBody', () => {
  it('returns the complete body', async () => {
    const body = await readAlertBody(Readable.from([Buffer.from('{"title":'), Buffer.from('"disk full"}')]), undefined);
    expect(body.toString()).toBe('{"title":"disk full"}');
  });

  it('accepts exactly 1 MiB', async () => {
    const text = `{"p":"${'x'.repeat(MiB - 8)}"}`;
    const body = await readAlertBody(Readable.from([Buffer.from(text)]), String(MiB));
    expect(body.length).toBe(MiB);
  });

  it('refuses a declared Content-Length above 1 MiB before reading anything', async () => {
    const stream = new PassThrough();
    await expect(readAlertBody(stream, String(MiB + 1))).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('stops at the first byte past 1 MiB and discards the rest unbuffered', async () => {
    const stream = new PassThrough();
    const reading = readAlertBody(stream, undefined);
    stream.write(Buffer.alloc(MiB, 0x20));
    stream.write(Buffer.from('['));
    await expect(reading).rejects.toMatchObject({ status: 413, code: 'payload_too_large' });
    // Still flowing: later chunks are read and dropped rather than piling up in the stream.
    stream.write(Buffer.alloc(64 * 1024, 0x20));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.readableLength).toBe(0);
    expect(stream.readableFlowing).toBe(true);
  });

  it('refuses nesting deeper than 100 levels while streaming', async () => {
    const stream = new PassThrough();
    const reading = readAlertBody(stream, undefined);
    stream.write('['.repeat(101));
    await expect(reading).rejects.toMatchObject({ status: 400, code: 'payload_too_deep' });
  });

  it('refuses a scalar or empty body as not an object or array', async () => {
    await expect(readAlertBody(Readable.from([Buffer.from('"text"')]), undefined)).rejects.toMatchObject({ status: 400, code: 'invalid_payload' });
    await expect(readAlertBody(Readable.from([]), '0')).rejects.toBeInstanceOf(BadRequestError);
  });

  it('reports a client that went away mid-body', async () => {
    const stream = new PassThrough();
    const reading = readAlertBody(stream, undefined);
    stream.write('{"a":');
    stream.destroy();
    await expect(reading).rejects.toBeInstanceOf(RequestAbortedError);
  });
});
