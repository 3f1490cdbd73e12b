import { AlertReply, integrationUrl, TestAlertResult as TestAlertBody } from '@alert-ingestion/contracts';
import { signedWebhookHeaders } from '@alert-ingestion/crypto';
import {
  BadRequestError,
  DomainError,
  PayloadTooLargeError,
  REQUEST_ID_HEADER,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnprocessableEntityError,
} from '@alert-ingestion/http';
import { parseJsonText } from '@alert-ingestion/integrations-domain';
import { JsonValue } from '@alert-ingestion/json';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from '../integrations-feature.options';

export interface TestAlertResult {
  /** 200 when the alert was processed, 202 when the gateway accepted it but processing is still under way. */
  status: 200 | 202;
  body: TestAlertBody;
}

export interface TestAlertTarget {
  url_token: string;
  authorization_key: string;
  /** The integration's signing secret (decrypted), or null when its requests are not signed. */
  signing_secret: string | null;
  active: boolean;
}

/**
 * A payload given as JSON text (the test alert, the preview): valid JSON within the receiver's
 * limits, else the error the gateway would answer (400 invalid_json or payload_too_deep, 413).
 */
export function payloadFromText(text: string, what: string): JsonValue {
  const parsed = parseJsonText(text, what);
  if (!parsed.ok) {
    if (parsed.problem === 'too_large') throw new PayloadTooLargeError(parsed.message);
    throw new BadRequestError(parsed.problem === 'invalid_json' ? 'invalid_json' : 'payload_too_deep', parsed.message);
  }
  return parsed.value;
}

function gatewayMessage(body: unknown): { error?: string; message?: string } {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { error, message } = body as { error?: unknown; message?: unknown };
    return { error: typeof error === 'string' ? error : undefined, message: typeof message === 'string' ? message : undefined };
  }
  return {};
}

function createdAlerts(body: unknown): Array<{ iid: number; title: string }> {
  if (!Array.isArray(body)) return [];
  return body
    .filter((item): item is AlertReply.CreatedAlertValue => typeof item === 'object' && item !== null && typeof item.iid === 'number')
    .map((item) => ({ iid: item.iid, title: String(item.title) }));
}

/**
 * "Send test alert" (spec 4.2, 1.6): the payload must be valid JSON (400 with a message the UI can
 * show, spec 7), and is then POSTed to the integration's own URL at the gateway with the
 * integration's authorization key, exactly as a monitoring tool would. It therefore goes through the
 * same pipeline (limits, rate limit, mapping, grouping) and cannot bypass any gateway rule. With a
 * signing secret it is signed as Grafana signs, in the timestamped form and at the moment it is
 * sent, so it passes the gateway's signature, freshness and replay checks like any sender's; the
 * secret stays in the service (the console never needs it to send one).
 */
@Injectable()
export class TestAlertService {
  private readonly logger = new Logger(TestAlertService.name);

  constructor(@Inject(INTEGRATIONS_FEATURE_OPTIONS) private readonly options: IntegrationsFeatureOptions) {}

  /** `requestId` names the request that sends it, and becomes the gateway request's X-Request-Id. */
  async send(target: TestAlertTarget, payload: string, requestId?: string): Promise<TestAlertResult> {
    payloadFromText(payload, 'test payload');
    if (!target.active) {
      throw new UnprocessableEntityError('The integration is disabled: enable it (Active) before sending a test alert.', 'integration_inactive');
    }
    // The gateway accepts an integration as soon as its create, activation or key reset has been
    // answered (read-your-writes), so the first answer is the answer.
    const response = await this.post(integrationUrl(this.options.gatewayInternalUrl, target.url_token), target, payload, requestId);
    return this.outcome(response.status, response.body, response.retryAfter);
  }

  private async post(url: string, target: TestAlertTarget, payload: string, requestId: string | undefined): Promise<{ status: number; body: unknown; retryAfter: number }> {
    const signed = Buffer.from(payload, 'utf8');
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${target.authorization_key}`,
          ...(target.signing_secret === null ? {} : signedWebhookHeaders(target.signing_secret, signed, Date.now())),
          ...(requestId !== undefined ? { [REQUEST_ID_HEADER]: requestId } : {}),
        },
        body: signed,
        signal: AbortSignal.timeout(this.options.testAlertTimeoutMs),
      });
    } catch (error) {
      // The URL holds only the public url token; the key travels in a header and is never logged.
      this.logger.warn(`The gateway did not answer a test alert: ${error instanceof Error ? error.message : String(error)}`);
      throw new ServiceUnavailableError('The test alert could not be sent: the alert gateway did not answer.', 5, 'gateway_unavailable');
    }
    // A body that is not JSON (or none) says nothing the outcome reads.
    const body: unknown = await response.json().catch(() => undefined);
    return { status: response.status, body, retryAfter: Number(response.headers.get('retry-after') ?? 5) || 5 };
  }

  private outcome(status: number, body: unknown, retryAfter: number): TestAlertResult {
    if (status === 200) {
      const alerts = createdAlerts(body);
      const message =
        alerts.length === 0
          ? 'The test alert was processed; it created no alert (a recovery alert that matched no open alert).'
          : `The test alert was processed: ${alerts.map((alert) => `alert ${alert.iid} "${alert.title}"`).join(', ')}.`;
      return { status: 200, body: { message, alerts } };
    }
    if (status === 202) {
      const requestId = (body as { request_id?: unknown } | undefined)?.request_id;
      return {
        status: 202,
        body: {
          message: 'The test alert was accepted and will be processed shortly.',
          alerts: [],
          ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
        },
      };
    }
    const gateway = gatewayMessage(body);
    const reason = gateway.message ?? `the gateway answered ${status}`;
    const message = `The test alert failed: ${reason}`;
    switch (status) {
      case 400:
        throw new BadRequestError(gateway.error ?? 'test_alert_rejected', message);
      case 413:
        throw new PayloadTooLargeError(message, gateway.error);
      case 422:
        throw new UnprocessableEntityError(message, gateway.error);
      case 429:
        throw new TooManyRequestsError(message, retryAfter, gateway.error);
      case 503:
        throw new ServiceUnavailableError(message, retryAfter, gateway.error);
      default:
        throw new DomainError(502, 'test_alert_failed', message);
    }
  }
}
