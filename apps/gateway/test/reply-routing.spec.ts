import { AlertEvent, RawAlert, Topic } from '@alert-ingestion/contracts';
import { KafkaNames } from '@alert-ingestion/kafka';
import { eventually, scrapeMetrics, ServiceProcess, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';
import { bearer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

/** Replies a gateway's listener took, by outcome, and POSTs it refused, by reason. */
async function replyCounts(gateway: ServiceProcess): Promise<{ delivered: number; late: number; unauthorized: number }> {
  const metrics = await scrapeMetrics(gateway.url);
  return {
    delivered: metrics.value('gateway_replies_total', { outcome: 'delivered' }),
    late: metrics.value('gateway_replies_total', { outcome: 'late' }),
    unauthorized: metrics.value('gateway_reply_requests_refused_total', { reason: 'unauthorized' }),
  };
}

/** Replies the processors posted, by outcome, summed over the processors given. */
async function processorReplies(processors: ServiceProcess[], outcome: 'delivered' | 'late' | 'failed'): Promise<number> {
  const scrapes = await Promise.all(processors.map((processor) => scrapeMetrics(processor.url)));
  return scrapes.reduce((sum, metrics) => sum + metrics.value('alert_processor_replies_total', { outcome }), 0);
}

/**
 * The reply hop end to end (docs/architecture.md "Messaging"): two gateways and two processors, as
 * separate processes. Each raw alert names the reply listener of the gateway that published it, so
 * each reply goes to that gateway alone: the other one's listener takes nothing. A gateway whose
 * listener the processors cannot reach answers 202 and the alert is stored all the same; a POST
 * with a wrong token is refused.
 */
describe('end to end: each reply reaches only the gateway that waits for it', () => {
  let pipeline: Pipeline;
  let project: Project;
  let second: ServiceProcess;
  let unreachable: ServiceProcess;
  let processors: ServiceProcess[];
  let rawAlerts: TopicCollector<RawAlert.RawAlertValue>;
  const kafka = testKafka({ logLevel: logLevel.NOTHING });
  const via = (gateway: ServiceProcess) => project.integration.url.replace(pipeline.gateway.url, gateway.url);
  const send = (gateway: ServiceProcess, title: string) => post(via(gateway), JSON.stringify({ title }), { headers: bearer(project.integration.authorization_key) });

  beforeAll(async () => {
    pipeline = await Pipeline.start({ gateway: { GATEWAY_REPLY_TIMEOUT_MS: '5000' }, processor: { PROCESSOR_REPLY_TIMEOUT_MS: '1000' } });
    [second, unreachable] = await Promise.all([
      pipeline.startGateway(),
      // Listens on 127.0.0.1 but tells the processors to reply at 127.0.0.2, where nothing listens.
      pipeline.startGateway({ GATEWAY_REPLY_BIND_HOST: '127.0.0.1', GATEWAY_REPLY_HOST: '127.0.0.2', GATEWAY_REPLY_TIMEOUT_MS: '3000' }),
    ]);
    processors = [pipeline.processor, await pipeline.startProcessor()];
    project = await pipeline.createProject('free');
    rawAlerts = await TopicCollector.published<RawAlert.RawAlertValue>(kafka, pipeline.topics.prefix, Topic.RawAlerts);
  }, 240_000);

  afterAll(async () => {
    await rawAlerts?.stop();
    await pipeline?.stop();
  }, 60_000);

  it("answers 200 from each gateway with its own reply, and no gateway's listener takes another's replies", async () => {
    const first = pipeline.gateway;
    const answersFromFirst = [];
    for (let n = 0; n < 6; n++) answersFromFirst.push(await send(first, `first ${n}`));
    expect(answersFromFirst.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await replyCounts(first)).toEqual({ delivered: 6, late: 0, unauthorized: 0 });
    expect(await replyCounts(second)).toEqual({ delivered: 0, late: 0, unauthorized: 0 });

    const answersFromSecond = [];
    for (let n = 0; n < 4; n++) answersFromSecond.push(await send(second, `second ${n}`));
    expect(answersFromSecond.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((answersFromSecond[3].body as Array<{ title: string }>)[0].title).toBe('second 3');
    expect(await replyCounts(first)).toEqual({ delivered: 6, late: 0, unauthorized: 0 });
    expect(await replyCounts(second)).toEqual({ delivered: 4, late: 0, unauthorized: 0 });
    expect(await processorReplies(processors, 'delivered')).toBe(10);

    // The raw alerts name two listeners, one per gateway, each with its own token.
    const messages = await rawAlerts.waitFor((message) => /^(first|second) /.test(String((message.value.payload as { title?: string }).title)), 10);
    const endpoints = new Map(messages.map((message) => [message.value.reply_endpoint?.url, message.value.reply_endpoint?.token]));
    expect(endpoints.size).toBe(2);
    expect(new Set(endpoints.values()).size).toBe(2);

    // Two records per alert on the brokers, the raw alert and its event, and no replies topic at all.
    // (Raw alerts are produced without transactions, so their offsets count records; events are
    // read, since the relay's transaction markers take offsets too.)
    const admin = kafka.admin();
    await admin.connect();
    const events = await TopicCollector.published<AlertEvent.AlertEventValue>(kafka, pipeline.topics.prefix, Topic.AlertEvents);
    try {
      const rawOffsets = await admin.fetchTopicOffsets(new KafkaNames(pipeline.topics.prefix).topic(Topic.RawAlerts));
      expect(rawOffsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(10);
      await events.waitFor((event) => event.value.project_id === project.id, 10);
      expect(events.received).toHaveLength(10);
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(pipeline.topics.prefix));
      expect(topics.some((topic) => topic.includes('replies'))).toBe(false);
    } finally {
      await Promise.all([admin.disconnect(), events.stop()]);
    }
  });

  it('answers 202 when the processors cannot reach the gateway, and the alert is stored all the same', async () => {
    const failedBefore = await processorReplies(processors, 'failed');
    const answer = await send(unreachable, 'unreachable gateway');
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ request_id: answer.headers['x-request-id'] });
    await eventually(async () => expect((await pipeline.alerts(project.id)).map((alert) => alert.title)).toContain('unreachable gateway'), 20_000);
    await eventually(async () => expect(await processorReplies(processors, 'failed')).toBe(failedBefore + 1), 10_000);
    expect(await replyCounts(unreachable)).toEqual({ delivered: 0, late: 0, unauthorized: 0 });
  });

  it("refuses a reply posted with another instance's token, and delivers nothing", async () => {
    const [ofFirst] = await rawAlerts.waitFor((message) => (message.value.payload as { title?: string }).title === 'first 0');
    const [ofSecond] = await rawAlerts.waitFor((message) => (message.value.payload as { title?: string }).title === 'second 0');
    const before = await replyCounts(pipeline.gateway);
    const forged = { replies: [{ request_id: ofFirst.value.request_id, reply_to: ofFirst.value.reply_to, status: 'processed', alerts: [{ iid: 99, title: 'forged' }] }] };
    const answer = await post(ofFirst.value.reply_endpoint!.url, JSON.stringify(forged), { headers: bearer(ofSecond.value.reply_endpoint!.token) });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(await replyCounts(pipeline.gateway)).toEqual({ ...before, unauthorized: before.unauthorized + 1 });
  });
});
