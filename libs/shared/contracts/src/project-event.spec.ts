import { AlertEventValue } from './alert-event';
import { ContractViolationError, decodeMessage, encodeMessage } from './decode-message';
import { IncidentEventValue } from './incident-event';

/** The refusal of `value` by `contract`, or undefined when it decodes. */
function refusalOf<T extends object>(contract: new () => T, value: object): unknown {
  try {
    decodeMessage(contract, encodeMessage(value));
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('ProjectEventFields: every project event checks when and which project', () => {
  const when = { occurred_at: '2026-11-27T05:00:00.000Z', project_id: 2 };
  const unusable = { occurred_at: 'yesterday', project_id: 0 };

  it('an alert event with its time and project decodes; without them it is refused, naming both', () => {
    const event = { type: 'alert.created', ...when, alert: { iid: 1 } };
    expect(refusalOf(AlertEventValue, event)).toBeUndefined();
    const refusal = refusalOf(AlertEventValue, { ...event, ...unusable });
    expect(refusal).toBeInstanceOf(ContractViolationError);
    expect((refusal as Error).message).toMatch(/occurred_at[\s\S]*project_id|project_id[\s\S]*occurred_at/);
  });

  it('an incident event likewise', () => {
    const event = { type: 'incident.created', ...when, incident: { iid: 1 } };
    expect(refusalOf(IncidentEventValue, event)).toBeUndefined();
    const refusal = refusalOf(IncidentEventValue, { ...event, ...unusable });
    expect(refusal).toBeInstanceOf(ContractViolationError);
    expect((refusal as Error).message).toMatch(/occurred_at[\s\S]*project_id|project_id[\s\S]*occurred_at/);
  });
});
