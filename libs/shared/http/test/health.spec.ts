import { INestApplication, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureHttpApp, HealthModule, HealthProbe } from '../src';

/** A dependency whose answer the test controls: a real probe, not a stand-in for the controller. */
@Injectable()
class SwitchableProbe implements HealthProbe {
  static down: string | null = null;
  readonly name = 'switchable';
  async ping(): Promise<void> {
    if (SwitchableProbe.down) throw new Error(SwitchableProbe.down);
  }
}

@Injectable()
class AlwaysUpProbe implements HealthProbe {
  readonly name = 'always';
  async ping(): Promise<void> {
    return undefined;
  }
}

describe('GET /healthz', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HealthModule.forRoot({ probes: [SwitchableProbe, AlwaysUpProbe] })],
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

  it('answers the contract error body for unknown routes', async () => {
    const response = await fetch(url.replace('/healthz', '/nope'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'Cannot GET /nope' });
  });
});
