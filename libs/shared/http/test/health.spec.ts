import { INestApplication, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureHttpApp, HealthDetails, HealthModule, HealthProbe, HealthProbeDownError } from '../src';

/** A dependency whose answer the test controls: a real probe, not a stand-in for the controller. */
@Injectable()
class SwitchableProbe implements HealthProbe {
  static down: string | null = null;
  readonly name = 'switchable';
  async ping(): Promise<void> {
    if (SwitchableProbe.down) throw new Error(SwitchableProbe.down);
  }
}

/** A dependency that never answers (a saturated pool, a silent network). */
@Injectable()
class HangingProbe implements HealthProbe {
  static hanging = false;
  readonly name = 'hanging';
  ping(): Promise<void> {
    return HangingProbe.hanging ? new Promise(() => undefined) : Promise.resolve();
  }
}

@Injectable()
class AlwaysUpProbe implements HealthProbe {
  readonly name = 'always';
  async ping(): Promise<void> {
    return undefined;
  }
}

/** A dependency that reports details, up or down. */
@Injectable()
class DetailedProbe implements HealthProbe {
  static behind = false;
  readonly name = 'detailed';
  async ping(): Promise<HealthDetails> {
    if (DetailedProbe.behind) throw new HealthProbeDownError('120 rows waiting', { backlog_rows: 120 });
    return { backlog_rows: 3 };
  }
}

describe('GET /healthz', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HealthModule.forRoot({ probes: [SwitchableProbe, AlwaysUpProbe, DetailedProbe, HangingProbe], probeTimeoutMs: 300 })],
    }).compile();
    app = configureHttpApp(moduleRef.createNestApplication({ logger: false }));
    await app.listen(0, '127.0.0.1');
    url = `${await app.getUrl()}/healthz`.replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers 200 when every dependency answers', async () => {
    SwitchableProbe.down = null;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', details: { switchable: { status: 'up' }, always: { status: 'up' } } });
  });

  it('answers 503 naming the dependency that is down', async () => {
    SwitchableProbe.down = 'connection refused';
    const response = await fetch(url);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { details: Record<string, { status: string }> };
    expect(body).toMatchObject({ error: 'unhealthy', message: 'switchable: connection refused' });
    expect(body.details.always.status).toBe('up');
  });

  it('shows the details a probe reports, up and down', async () => {
    SwitchableProbe.down = null;
    expect(await (await fetch(url)).json()).toMatchObject({ details: { detailed: { status: 'up', backlog_rows: 3 } } });
    DetailedProbe.behind = true;
    try {
      const response = await fetch(url);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        message: 'detailed: 120 rows waiting',
        details: { detailed: { status: 'down', backlog_rows: 120, reason: '120 rows waiting' } },
      });
    } finally {
      DetailedProbe.behind = false;
    }
  });

  it('answers 503 in time when a dependency does not answer, naming it', async () => {
    HangingProbe.hanging = true;
    try {
      const response = await fetch(url);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        message: 'hanging: hanging did not answer within 300 ms',
        details: { hanging: { status: 'down' }, always: { status: 'up' } },
      });
    } finally {
      HangingProbe.hanging = false;
    }
  });

  it('answers the contract error body for unknown routes', async () => {
    const response = await fetch(url.replace('/healthz', '/nope'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'Cannot GET /nope' });
  });
});
