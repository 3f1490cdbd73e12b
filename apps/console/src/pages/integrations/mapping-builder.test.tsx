import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PayloadAlertField, PayloadFieldMappingEntry } from '@console/api/types';
import { JsonObject } from '@console/lib/json-text';
import { MappingBuilder } from './mapping-builder';

const SAMPLE: JsonObject = {
  summary: 'Disk full',
  fired_at: '2024-05-01T10:00:00Z',
  resolved_at: null,
  count: 3,
  labels: { severity: 'high', instance: 'db-1' },
  targets: ['db-1', 'db-2'],
};

/** What parse_sample_payload answers for SAMPLE (the API's own labels and types). */
const FIELDS: PayloadAlertField[] = [
  { path: ['summary'], label: 'summary', type: 'string' },
  { path: ['fired_at'], label: 'fired_at', type: 'datetime' },
  { path: ['resolved_at'], label: 'resolved_at', type: 'string' },
  { path: ['count'], label: 'count', type: 'number' },
  { path: ['labels', 'severity'], label: 'labels.severity', type: 'string' },
  { path: ['labels', 'instance'], label: 'labels.instance', type: 'string' },
  { path: ['targets'], label: 'targets', type: 'array' },
  { path: ['targets', 0], label: 'targets[0]', type: 'string' },
  { path: ['targets', 1], label: 'targets[1]', type: 'string' },
];

/** The builder with its mapping held in state, as the form holds it; exposes the mapping it reports. */
function Harness({ initial = [] }: { initial?: PayloadFieldMappingEntry[] }) {
  const [mapping, setMapping] = useState<PayloadFieldMappingEntry[]>(initial);
  return (
    <>
      <MappingBuilder fields={FIELDS} sample={SAMPLE} mapping={mapping} onChange={setMapping} />
      <output data-testid="mapping">{JSON.stringify(mapping)}</output>
    </>
  );
}

const optionLabels = (select: HTMLElement) => within(select).getAllByRole('option').map((option) => option.textContent);
const mappingOf = () => JSON.parse(screen.getByTestId('mapping').textContent ?? '[]') as PayloadFieldMappingEntry[];

describe('MappingBuilder', () => {
  it('lists every platform alert key with the types it takes', () => {
    render(<Harness />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Title title',
      'Description description',
      'Start time start_time',
      'End time end_time',
      'Service service',
      'Monitoring tool monitoring_tool',
      'Hosts hosts',
      'Severity severity',
      'Fingerprint fingerprint',
      'Environment platform_environment_name',
    ]);
    expect(within(rows[2]).getByText('DateTime')).toBeInTheDocument();
    expect(within(rows[6]).getByText('String or Array')).toBeInTheDocument();
  });

  it('offers for each key only the payload keys that fit it, nested paths readable, with their sample values', () => {
    render(<Harness />);
    expect(optionLabels(screen.getByLabelText('Payload alert key for Title'))).toEqual([
      'Not mapped',
      'summary (String): "Disk full"',
      'fired_at (DateTime): "2024-05-01T10:00:00Z"',
      'resolved_at (null in the sample)',
      'labels.severity (String): "high"',
      'labels.instance (String): "db-1"',
      'targets[0] (String): "db-1"',
      'targets[1] (String): "db-2"',
    ]);
    // Only datetimes (and null leaves) fit the start and end time; a number fits no key.
    expect(optionLabels(screen.getByLabelText('Payload alert key for Start time'))).toEqual([
      'Not mapped',
      'fired_at (DateTime): "2024-05-01T10:00:00Z"',
      'resolved_at (null in the sample)',
    ]);
    expect(optionLabels(screen.getByLabelText('Payload alert key for Hosts'))).toContain('targets (Array): ["db-1","db-2"]');
    expect(optionLabels(screen.getByLabelText('Payload alert key for Title')).join()).not.toContain('count');
    expect(optionLabels(screen.getByLabelText('Payload alert key for Title')).join()).not.toContain('targets (Array)');
  });

  it('maps a key to a payload key with the type the key takes, and unmaps it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(screen.getByLabelText('Payload alert key for Title'), 'summary (String): "Disk full"');
    await user.selectOptions(screen.getByLabelText('Payload alert key for Hosts'), 'targets (Array): ["db-1","db-2"]');
    await user.selectOptions(screen.getByLabelText('Payload alert key for End time'), 'resolved_at (null in the sample)');
    await user.selectOptions(screen.getByLabelText('Payload alert key for Severity'), 'labels.severity (String): "high"');
    // In the table's order, whatever the order of choosing.
    expect(mappingOf()).toEqual([
      { field_name: 'title', path: ['summary'], type: 'string' },
      { field_name: 'end_time', path: ['resolved_at'], type: 'datetime' },
      { field_name: 'hosts', path: ['targets'], type: 'array' },
      { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
    ]);
    expect(screen.getByText(/4 of 10 platform alert keys mapped/)).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Payload alert key for Title'), 'Not mapped');
    expect(mappingOf().map((entry) => entry.field_name)).toEqual(['end_time', 'hosts', 'severity']);
  });

  it('maps a datetime to a text key as a string', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(screen.getByLabelText('Payload alert key for Description'), 'fired_at (DateTime): "2024-05-01T10:00:00Z"');
    expect(mappingOf()).toEqual([{ field_name: 'description', path: ['fired_at'], type: 'string' }]);
  });

  it('shows a saved mapping as selected', () => {
    render(<Harness initial={[{ field_name: 'fingerprint', path: ['targets', 1], type: 'string' }]} />);
    const select = screen.getByLabelText('Payload alert key for Fingerprint') as HTMLSelectElement;
    expect(select.selectedOptions[0].textContent).toBe('targets[1] (String): "db-2"');
  });
});
