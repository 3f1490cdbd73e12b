import { PrometheusText } from './prometheus-text';

const SCRAPE = `# HELP gateway_receive_requests_total Receive requests by status.
# TYPE gateway_receive_requests_total counter
gateway_receive_requests_total{status="200"} 3
gateway_receive_requests_total{status="401"} 1

# HELP http_request_duration_seconds HTTP requests.
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.005",method="GET",route="/healthz",status_code="200"} 1
http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/healthz",status_code="200"} 2
http_request_duration_seconds_sum{method="GET",route="/healthz",status_code="200"} 0.0123
http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"} 2
http_request_duration_seconds_count{method="POST",route="/alerts/notify/:url_token.json",status_code="200"} 5
# TYPE odd gauge
odd{path="a \\"quoted\\" \\\\ back\\nslash",} -Inf 1700000000000
nodejs_eventloop_lag_seconds 0.001e0
not_measured_yet Nan
`;

describe('PrometheusText', () => {
  const text = new PrometheusText(SCRAPE);

  it('reads samples with their labels and values, escapes and special values included', () => {
    expect(text.select('gateway_receive_requests_total')).toEqual([
      { name: 'gateway_receive_requests_total', labels: { status: '200' }, value: 3 },
      { name: 'gateway_receive_requests_total', labels: { status: '401' }, value: 1 },
    ]);
    expect(text.select('odd')).toEqual([{ name: 'odd', labels: { path: 'a "quoted" \\ back\nslash' }, value: -Infinity }]);
    expect(text.value('http_request_duration_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(text.value('nodejs_eventloop_lag_seconds')).toBe(0.001);
    expect(text.value('not_measured_yet')).toBeNaN();
  });

  it('sums the samples whose labels include the ones asked for, and counts a missing series as 0', () => {
    expect(text.value('http_request_duration_seconds_count')).toBe(7);
    expect(text.value('http_request_duration_seconds_count', { method: 'POST' })).toBe(5);
    expect(text.value('gateway_receive_requests_total', { status: '404' })).toBe(0);
  });

  it('keeps the type and help of each metric family', () => {
    expect(text.families.get('http_request_duration_seconds')).toEqual({ name: 'http_request_duration_seconds', type: 'histogram', help: 'HTTP requests.' });
    expect(text.families.get('odd')?.type).toBe('gauge');
    expect(text.typesOf(['gateway_receive_requests_total', 'missing'])).toEqual({ gateway_receive_requests_total: 'counter', missing: undefined });
  });

  it('refuses what is not the text format', () => {
    expect(() => new PrometheusText('<html>metrics</html>')).toThrow(/line 1 is not a Prometheus sample/);
    expect(() => new PrometheusText('up{job="a" 1')).toThrow(/not a Prometheus sample/);
    expect(() => new PrometheusText('up{job=a} 1')).toThrow(/malformed labels/);
    expect(() => new PrometheusText('up one')).toThrow(/not a sample value/);
  });
});
