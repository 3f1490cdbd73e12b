/** A JSON value as a collapsible tree (native <details>, so keyboard and screen readers work as usual). */
export function JsonTree({ value, label = 'payload' }: { value: unknown; label?: string }) {
  return (
    <div className="json-tree">
      <JsonNode name={label} value={value} depth={0} />
    </div>
  );
}

function JsonNode({ name, value, depth }: { name: string; value: unknown; depth: number }) {
  if (value !== null && typeof value === 'object') {
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    return (
      <details open={depth < 2}>
        <summary>
          <span className="json-key">{name}</span> <span className="muted">{summary}</span>
        </summary>
        <ul>
          {entries.map(([key, item]) => (
            <li key={key}>
              <JsonNode name={key} value={item} depth={depth + 1} />
            </li>
          ))}
        </ul>
      </details>
    );
  }
  return (
    <span className="json-leaf">
      <span className="json-key">{name}</span>: <span className={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
    </span>
  );
}
