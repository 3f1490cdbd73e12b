import { KafkaNames } from '@alert-ingestion/kafka';
import { Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { eventually, ServiceProcess, testKafka } from '@alert-ingestion/testing';
import { Partitioners } from 'kafkajs';
import { randomBytes, randomUUID } from 'node:crypto';
import { basic, bearer, post } from './support/http-client';
import { ADMIN_TOKEN, Pipeline } from './support/pipeline';

interface LogLine {
  time: string;
  level: string;
  service: string;
  context?: string;
  message: string;
  request_id?: string;
  [field: string]: unknown;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/**
 * LOG_FORMAT=json and LOG_LEVEL=debug on the three services as processes, through a flow that
 * handles every kind of secret (docs/operating.md "Observability"): every line is one JSON object with the
 * common fields, the lines of a request carry the X-Request-Id its client sent, and no token,
 * authorization key or Basic credential appears anywhere.
 */
describe('JSON logs and request ids across the services', () => {
  let pipeline: Pipeline;
  const output = new Map<string, readonly string[]>();
  const secrets: string[] = [ADMIN_TOKEN];
  /** X-Request-Id values sent in the flow, by the service whose lines must carry them. */
  const sent: Record<string, string[]> = { 'integration-config': [], gateway: [], 'alert-processor': [] };
  const deadLetterRequestId = `logs-dead-letter-${randomUUID()}`;
  let withoutContextRequestId = '';
  let withoutContextOutput: () => readonly string[] = () => [];

  const requestId = (service: keyof typeof sent, name: string) => {
    const id = `logs-${name}-${randomBytes(4).toString('hex')}`;
    sent[service].push(id);
    return id;
  };

  async function call(service: ServiceProcess, method: string, path: string, options: { token?: string; privateToken?: string; body?: unknown; requestId: string }) {
    const headers: Record<string, string> = { 'X-Request-Id': options.requestId };
    if (options.token) headers['Authorization'] = `Bearer ${options.token}`;
    if (options.privateToken) headers['PRIVATE-TOKEN'] = options.privateToken;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${service.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    expect(response.headers.get('x-request-id')).toBe(options.requestId);
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as Record<string, unknown> };
  }

  beforeAll(async () => {
    pipeline = await Pipeline.start({
      all: { LOG_FORMAT: 'json', LOG_LEVEL: 'debug' },
      processor: { INTEGRATION_LOOKUP_TIMEOUT_MS: '200' },
      keepAllOutput: true,
    });
    const config = pipeline.integrationConfig;
    try {
      const user = await call(config, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, body: { username: `logs-${randomBytes(4).toString('hex')}` }, requestId: requestId('integration-config', 'create-user') });
      expect(user.status).toBe(201);
      const userToken = user.body['token'] as string;
      secrets.push(userToken);
      const project = await call(config, 'POST', '/api/v4/projects', { token: ADMIN_TOKEN, body: { path: `logs-${randomBytes(4).toString('hex')}`, tier: 'premium' }, requestId: requestId('integration-config', 'create-project') });
      const projectId = project.body['id'] as number;
      await call(config, 'POST', `/api/v4/projects/${projectId}/members`, { privateToken: ADMIN_TOKEN, body: { user_id: user.body['id'], access_level: 'maintainer' }, requestId: requestId('integration-config', 'add-member') });

      const created = await call(config, 'POST', `/api/v4/projects/${projectId}/alert_integrations`, {
        privateToken: userToken,
        body: { type: 'http', name: 'Logged endpoint', active: true },
        requestId: requestId('integration-config', 'create-integration'),
      });
      expect(created.status).toBe(201);
      const integrationId = created.body['id'] as number;
      const url = created.body['url'] as string;
      const oldKey = created.body['authorization_key'] as string;
      secrets.push(oldKey);
      const reset = await call(config, 'POST', `/api/v4/projects/${projectId}/alert_integrations/${integrationId}/reset_authorization_key`, {
        token: userToken,
        requestId: requestId('integration-config', 'reset-key'),
      });
      expect(reset.status).toBe(200);
      const key = reset.body['authorization_key'] as string;
      secrets.push(key);

      const received = async (name: string, headers: Record<string, string>, target = url) => {
        const id = requestId('gateway', name);
        const answer = await post(target, JSON.stringify({ title: `logged ${name}` }), { headers: { ...headers, 'X-Request-Id': id } });
        expect(answer.headers['x-request-id']).toBe(id);
        return answer.status;
      };
      await eventually(async () => expect(await received('bearer', bearer(key))).toBe(200), 3_000, 100);
      expect(await received('basic', basic('', key))).toBe(200);
      const withCredentials = new URL(url);
      withCredentials.password = key;
      expect(await received('url-credentials', {}, withCredentials.toString())).toBe(200);
      expect(await received('old-key', bearer(oldKey))).toBe(401);

      // The same refusal at a gateway whose request context is off (GATEWAY_REQUEST_CONTEXT=false).
      const withoutContext = await pipeline.startGateway({ GATEWAY_REQUEST_CONTEXT: 'false' });
      withoutContextRequestId = `logs-no-context-${randomBytes(4).toString('hex')}`;
      const refused = await post(new URL(new URL(url).pathname, withoutContext.url).toString(), JSON.stringify({ title: 'logged without context' }), {
        headers: { ...bearer(oldKey), 'X-Request-Id': withoutContextRequestId },
      });
      expect(refused.status).toBe(401);
      withoutContextOutput = () => withoutContext.allOutput();

      const testAlertId = requestId('integration-config', 'test-alert');
      // integration-config passes its request id on to the gateway, whose lines carry it too.
      sent.gateway.push(testAlertId);
      const testAlert = await call(config, 'POST', `/api/v4/projects/${projectId}/alert_integrations/${integrationId}/test_alert`, {
        token: userToken,
        body: { payload: '{"title": "logged test alert"}' },
        requestId: testAlertId,
      });
      expect(testAlert.status).toBe(200);
      expect((await call(config, 'GET', '/api/v4/user', { token: 'not-a-token', requestId: requestId('integration-config', 'bad-token') })).status).toBe(401);

      const alerts = await call(pipeline.processor, 'GET', `/api/v4/projects/${projectId}/alerts`, { privateToken: userToken, requestId: requestId('alert-processor', 'alerts') });
      expect(alerts.status).toBe(200);

      // A raw alert whose integration the processor never learns: dead-lettered, its line names the request.
      const kafka = testKafka();
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      await producer.send({
        topic: new KafkaNames(pipeline.topics.prefix).topic(Topic.RawAlerts),
        messages: [
          {
            key: 'no-such-integration',
            value: TOPIC_REGISTRY[Topic.RawAlerts].encode({
              request_id: randomUUID(),
              x_request_id: deadLetterRequestId,
              integration_id: '987654321',
              project_id: String(projectId),
              received_at: new Date().toISOString(),
              payload: { title: 'never stored' },
            }),
          },
        ],
      });
      await producer.disconnect();
      sent['alert-processor'].push(deadLetterRequestId);
      await eventually(() => expect(pipeline.processor.allOutput().some((line) => line.includes(deadLetterRequestId))).toBe(true), 15_000, 100);
    } finally {
      await pipeline.stop();
    }
    for (const service of [pipeline.integrationConfig, pipeline.gateway, pipeline.processor]) output.set(service.name, service.allOutput());
    output.set('gateway without request context', withoutContextOutput());
  }, 240_000);

  const services = ['integration-config', 'gateway', 'alert-processor'] as const;
  const linesOf = (service: string): LogLine[] => (output.get(service) ?? []).map((line) => JSON.parse(line) as LogLine);

  it.each(services)('%s writes only JSON objects with time, level, service, context and message', (service) => {
    const lines = output.get(service) ?? [];
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`${service} wrote a line that is not JSON: ${line}`);
      }
      expect({ line, time: Number.isNaN(Date.parse(parsed.time)), level: LEVELS.includes(parsed.level), service: parsed.service, message: typeof parsed.message, context: typeof parsed.context }).toEqual({
        line,
        time: false,
        level: true,
        service,
        message: 'string',
        context: 'string',
      });
    }
  });

  it.each(services)("%s's lines carry the request id each client sent, on the request's access line", (service) => {
    const named = new Set(linesOf(service).map((line) => line.request_id));
    expect(sent[service].length).toBeGreaterThan(0);
    expect(sent[service].filter((id) => !named.has(id))).toEqual([]);
  });

  it('names the request of every line written while it is handled, such as a refused token', () => {
    const badToken = sent['integration-config'].find((id) => id.includes('bad-token'))!;
    const access = linesOf('integration-config').filter((line) => line.request_id === badToken);
    expect(access).toContainEqual(expect.objectContaining({ context: 'HTTP', level: 'info', req: { method: 'GET', url: '/api/v4/user' }, res: { status: 401 } }));
  });

  it("names the request on the gateway's receive path, also on lines other parts write for it", () => {
    const refused = sent.gateway.find((id) => id.includes('old-key'))!;
    const lines = linesOf('gateway').filter((line) => line.request_id === refused);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'debug', context: 'ReceiveAlert', message: 'POST <integration url> 401' }));
    // An unknown key makes the integration view catch up with its topic before the 401.
    expect(lines).toContainEqual(expect.objectContaining({ context: 'Kafka', message: expect.stringContaining('ListOffsets') }));
  });

  it('names the request once per line, and only on its own lines when the gateway runs without request context', () => {
    for (const service of [...services, 'gateway without request context']) {
      expect((output.get(service) ?? []).filter((line) => (line.match(/"request_id":/g) ?? []).length > 1)).toEqual([]);
    }
    const lines = linesOf('gateway without request context').filter((line) => line.request_id === withoutContextRequestId);
    expect(lines).toEqual([expect.objectContaining({ context: 'ReceiveAlert', message: 'POST <integration url> 401' })]);
  });

  it("names the raw alert's X-Request-Id on the processor's dead-letter line", () => {
    expect(linesOf('alert-processor')).toContainEqual(
      expect.objectContaining({ level: 'warn', context: 'RawAlertConsumer', request_id: deadLetterRequestId, message: expect.stringContaining('Dead-lettered') }),
    );
  });

  it('structures kafkajs lines, its own fields under `kafka`', () => {
    expect(linesOf('gateway')).toContainEqual(expect.objectContaining({ context: 'Kafka', kafka: expect.objectContaining({ namespace: expect.any(String) }) }));
  });

  it('writes no token, authorization key or Basic credential, in any form', () => {
    const forms = secrets.flatMap((secret) => [secret, Buffer.from(`:${secret}`).toString('base64'), Buffer.from(secret).toString('base64'), encodeURIComponent(secret)]);
    for (const service of [...services, 'gateway without request context']) {
      for (const line of output.get(service) ?? []) {
        const leaked = forms.filter((form) => line.includes(form));
        expect({ service, line, leaked }).toEqual({ service, line, leaked: [] });
      }
    }
  });
});
