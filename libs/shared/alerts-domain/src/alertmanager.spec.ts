import { alertSourceFromAlertmanagerElement, isAlertmanagerBody } from './alertmanager';

const firing = {
  status: 'firing',
  labels: { alertname: 'HighLatency', severity: 'warning', instance: 'web-1:9100', job: 'node' },
  annotations: { summary: 'Latency is high', description: 'p99 above 1s' },
  startsAt: '2024-05-01T12:00:00Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus/graph',
  fingerprint: 'c0ffee',
};

describe('isAlertmanagerBody', () => {
  it('recognises version "4" with groupKey and alerts', () => {
    expect(isAlertmanagerBody({ version: '4', groupKey: '{}:{}', alerts: [] })).toBe(true);
  });

  it.each([
    [{ version: 4, groupKey: 'g', alerts: [] }],
    [{ version: '3', groupKey: 'g', alerts: [] }],
    [{ version: '4', alerts: [] }],
    [{ version: '4', groupKey: 'g', alerts: {} }],
    [[{ version: '4', groupKey: 'g', alerts: [] }]],
  ])('does not take %j for one', (body) => {
    expect(isAlertmanagerBody(body)).toBe(false);
  });
});

describe('alertSourceFromAlertmanagerElement', () => {
  it('reads a firing alert', () => {
    const source = alertSourceFromAlertmanagerElement(firing);
    expect(source.payload).toBe(firing);
    expect(source.fields).toEqual({
      title: 'Latency is high',
      description: 'p99 above 1s',
      severity: 'medium',
      monitoring_tool: 'Prometheus',
      fingerprint: 'c0ffee',
      start_time: '2024-05-01T12:00:00Z',
      service: 'node',
      hosts: 'web-1:9100',
    });
  });

  it('takes endsAt as the end time only when the element is resolved', () => {
    const resolved = { ...firing, status: 'resolved', endsAt: '2024-05-01T12:30:00Z' };
    expect(alertSourceFromAlertmanagerElement(resolved).fields.end_time).toBe('2024-05-01T12:30:00Z');
    expect(alertSourceFromAlertmanagerElement({ ...firing, endsAt: '2024-05-01T12:30:00Z' }).fields.end_time).toBeUndefined();
  });

  it('prefers annotations.title, then summary, then labels.alertname', () => {
    const withTitle = { ...firing, annotations: { title: 'T', summary: 'S' } };
    expect(alertSourceFromAlertmanagerElement(withTitle).fields).toMatchObject({ title: 'T', description: 'S' });
    const onlyName = { ...firing, annotations: {} };
    expect(alertSourceFromAlertmanagerElement(onlyName).fields.title).toBe('HighLatency');
    expect(alertSourceFromAlertmanagerElement(onlyName).fields.description).toBeUndefined();
    const nothing = { status: 'firing' };
    expect(alertSourceFromAlertmanagerElement(nothing).fields.title).toBeUndefined();
  });

  it('does not repeat the summary as description when it is the title', () => {
    const summaryOnly = { ...firing, annotations: { summary: 'S' } };
    expect(alertSourceFromAlertmanagerElement(summaryOnly).fields).toMatchObject({ title: 'S' });
    expect(alertSourceFromAlertmanagerElement(summaryOnly).fields.description).toBeUndefined();
  });

  it('falls back to the label set as fingerprint, and to labels.service before job', () => {
    const { fingerprint: _unused, ...rest } = firing;
    const noFingerprint = { ...rest, labels: { ...firing.labels, service: 'api' } };
    const source = alertSourceFromAlertmanagerElement(noFingerprint);
    expect(source.fields.fingerprint).toEqual(noFingerprint.labels);
    expect(source.fields.service).toBe('api');
  });

  it('maps the severity label, defaulting to critical', () => {
    expect(alertSourceFromAlertmanagerElement({ labels: { severity: 'error' } }).fields.severity).toBe('high');
    expect(alertSourceFromAlertmanagerElement({ labels: {} }).fields.severity).toBe('critical');
  });

  it('reads the platform environment from labels', () => {
    expect(alertSourceFromAlertmanagerElement({ labels: { environment: 'prod' } }).fields.platform_environment_name).toBe('prod');
  });
});
