import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { testKafka, TopicCollector } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';
import { bearer, post } from './support/http-client';
import { ADMIN_TOKEN, Pipeline, Project } from './support/pipeline';

/** The body as a monitoring tool writes it: JSON escapes for NUL and unpaired surrogates. */
const WITH_NUL_AND_SURROGATES = String.raw`{"title":"disk\u0000full","fingerprint":"a\u0000b","hosts":["db-1\ud800"],"service":"\udc00svc","custom":{"k\u0000":["\ud83d\ude00","\udc00x"]}}`;
const WITH_REPLACEMENT_CHARACTER = String.raw`{"title":"replacement","fingerprint":"a\ufffdb"}`;

/**
 * An alert payload is never refused for its text (a monitoring tool cannot fix its payloads), and
 * never changed either (docs/operating.md "Input policy and limits"): NUL and unpaired UTF-16 surrogates are
 * kept exactly in `payload` and in the fingerprint, and the text fields show them as JSON escapes.
 */
describe('alert payloads with NUL and unpaired surrogates, end to end', () => {
  let pipeline: Pipeline;
  let project: Project;
  let events: TopicCollector<AlertEvent.AlertEventValue>;

  beforeAll(async () => {
    pipeline = await Pipeline.start();
    project = await pipeline.createProject('premium');
    events = await TopicCollector.published(testKafka({ logLevel: logLevel.NOTHING }), pipeline.topics.prefix, Topic.AlertEvents);
  }, 180_000);

  afterAll(async () => {
    await events?.stop();
    await pipeline?.stop();
  }, 60_000);

  /** The alert as the query API answers it, parsed from the answer's text. */
  async function alert(iid: number): Promise<Record<string, unknown>> {
    const response = await fetch(`${pipeline.processor.url}/api/v4/projects/${project.id}/alerts/${iid}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.status).toBe(200);
    return JSON.parse(await response.text()) as Record<string, unknown>;
  }

  it('stores both alerts apart, keeps the payload exactly and shows escapes in the text fields', async () => {
    const send = (body: string) => post(project.integration.url, body, { headers: bearer(project.integration.authorization_key) });
    const first = await send(WITH_NUL_AND_SURROGATES);
    const second = await send(WITH_REPLACEMENT_CHARACTER);
    expect([first.status, second.status]).toEqual([200, 200]);
    const [[{ iid: firstIid }], [{ iid: secondIid }]] = [first.body, second.body] as Array<Array<{ iid: number }>>;
    expect(secondIid).not.toBe(firstIid);
    expect(first.body).toEqual([{ iid: firstIid, title: 'disk\\u0000full' }]);

    // The same payload again groups into the first alert: its fingerprint is the exact value's.
    const repeat = await send(WITH_NUL_AND_SURROGATES);
    expect(repeat.body).toEqual([{ iid: firstIid, title: 'disk\\u0000full' }]);

    const stored = await alert(firstIid);
    expect(stored).toMatchObject({
      title: 'disk\\u0000full',
      fingerprint: 'a\\u0000b',
      hosts: ['db-1\\ud800'],
      service: '\\udc00svc',
      events: 2,
    });
    expect(stored['payload']).toEqual(JSON.parse(WITH_NUL_AND_SURROGATES));
    expect((stored['payload'] as { custom: Record<string, string[]> }).custom['k\u0000']).toEqual(['😀', '\udc00x']);
    expect(await alert(secondIid)).toMatchObject({ title: 'replacement', fingerprint: 'a\uFFFDb', payload: { title: 'replacement', fingerprint: 'a\uFFFDb' } });

    // The search finds the escape text of the text fields.
    const found = await fetch(`${pipeline.processor.url}/api/v4/projects/${project.id}/alerts?search=${encodeURIComponent('disk\\u0000')}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await found.json()) as Array<{ iid: number }>).map((match) => match.iid)).toEqual([firstIid]);

    // The alert events carry the exact payload too.
    const [created] = await events.waitFor((event) => event.value.type === 'alert.created' && event.value.alert.iid === firstIid);
    expect(created.value.alert).toMatchObject({ payload: JSON.parse(WITH_NUL_AND_SURROGATES) });
  });
});
