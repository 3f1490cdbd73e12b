import { useId } from 'react';
import { PayloadAlertField, PayloadFieldMappingEntry } from '@console/api/types';
import { DataTable } from '@console/components/data-table';
import { JsonObject } from '@console/lib/json-text';
import { mappingTypeFor, pathKey, PLATFORM_ALERT_KEYS, PlatformAlertKey, previewValue, TYPE_LABELS, valueAtPath, withMapping } from '@console/lib/payload-mapping';

interface MappingBuilderProps {
  /** The parsed sample payload's values ("Parse payload for custom mapping"). */
  fields: readonly PayloadAlertField[];
  /** The sample payload they were parsed from, for value previews and null leaves. */
  sample: JsonObject;
  mapping: readonly PayloadFieldMappingEntry[];
  onChange(mapping: PayloadFieldMappingEntry[]): void;
}

/**
 * The payload field mapping (spec 2.1): every platform alert key with the types it takes, and a
 * "Payload alert key" dropdown of the sample payload's values that fit it.
 */
export function MappingBuilder({ fields, sample, mapping, onChange }: MappingBuilderProps) {
  const mapped = mapping.length;
  return (
    <div className="mapping">
      <p className="hint" role="status">
        {mapped} of {PLATFORM_ALERT_KEYS.length} platform alert keys mapped. A key left unmapped is read from the payload property of its own name
        (for example <code>title</code>).
      </p>
      <DataTable rows={PLATFORM_ALERT_KEYS} columns={['Platform alert key', 'Type', 'Payload alert key']} className="mapping-table" scroll>
        {(key) => (
          <MappingRow
            key={key.name}
            platformKey={key}
            fields={fields}
            sample={sample}
            entry={mapping.find((candidate) => candidate.field_name === key.name)}
            onSelect={(field, type) => onChange(withMapping(mapping, key, field, type))}
          />
        )}
      </DataTable>
    </div>
  );
}

interface MappingRowProps {
  platformKey: PlatformAlertKey;
  fields: readonly PayloadAlertField[];
  sample: JsonObject;
  entry: PayloadFieldMappingEntry | undefined;
  onSelect(field: PayloadAlertField | null, type: PayloadFieldMappingEntry['type'] | null): void;
}

function MappingRow({ platformKey, fields, sample, entry, onSelect }: MappingRowProps) {
  const id = useId();
  const options = fields
    .map((field) => {
      const value = valueAtPath(sample, field.path);
      return { field, value, type: mappingTypeFor(platformKey, field, value === null) };
    })
    .filter((option) => option.type !== null);
  const selected = entry ? pathKey(entry.path) : '';
  const selectedMissing = entry !== undefined && !options.some((option) => pathKey(option.field.path) === selected);

  return (
    <tr>
      <th scope="row">
        {platformKey.label} <code className="muted">{platformKey.name}</code>
      </th>
      <td>{platformKey.accepts.map((type) => TYPE_LABELS[type]).join(' or ')}</td>
      <td>
        <label htmlFor={id} className="visually-hidden">
          Payload alert key for {platformKey.label}
        </label>
        <select
          id={id}
          value={selected}
          disabled={options.length === 0 && !entry}
          onChange={(event) => {
            const option = options.find((candidate) => pathKey(candidate.field.path) === event.target.value);
            onSelect(option?.field ?? null, option?.type ?? null);
          }}
        >
          <option value="">{options.length === 0 ? 'No value of the sample fits' : 'Not mapped'}</option>
          {options.map(({ field, value }) => (
            <option key={pathKey(field.path)} value={pathKey(field.path)}>
              {field.label} ({value === null ? 'null in the sample' : TYPE_LABELS[field.type]}){value === null ? '' : `: ${previewValue(value)}`}
            </option>
          ))}
          {selectedMissing && entry && (
            <option value={selected}>{entry.path.join('.')} (not in the sample payload)</option>
          )}
        </select>
      </td>
    </tr>
  );
}
