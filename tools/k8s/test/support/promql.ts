import { parser } from '@prometheus-io/lezer-promql';

export interface SeriesSelector {
  /** The metric name of a vector selector (`foo` in `rate(foo{a="b"}[5m])`). */
  series: string;
  /** Label names its matchers use. */
  labels: string[];
}

/**
 * The series selectors of a PromQL expression, parsed with the Prometheus project's own grammar
 * (the one its web UI uses). Throws on a syntax error. Grafana's interval variables
 * ($__rate_interval, $__interval, $__range) stand for durations and are read as such.
 */
export function seriesSelectors(expression: string): SeriesSelector[] {
  const promql = expression.replace(/\$__(rate_interval|interval|range)\b/g, '5m');
  const tree = parser.parse(promql);
  const selectors: SeriesSelector[] = [];
  const errors: number[] = [];
  const text = (from: number, to: number) => promql.slice(from, to);
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      if (node.name !== 'VectorSelector') return;
      const selector: SeriesSelector = { series: '', labels: [] };
      const cursor = node.node.cursor();
      cursor.iterate((child) => {
        if (child.name === 'Identifier' && selector.series === '') selector.series = text(child.from, child.to);
        if (child.name === 'LabelName') selector.labels.push(text(child.from, child.to));
      });
      selectors.push(selector);
    },
  });
  if (errors.length > 0) {
    throw new Error(`PromQL syntax error at ${errors.map((at) => `offset ${at} ("${promql.slice(at, at + 20)}")`).join(', ')} in: ${expression}`);
  }
  return selectors;
}
