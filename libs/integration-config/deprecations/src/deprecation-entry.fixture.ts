import { DeprecationEntry } from './deprecation-catalogue';

/** A minimal catalogue entry for specs; each spec states the fields its assertions rely on. */
export function deprecationEntry(id: string, removal_milestone: string, fields: Partial<DeprecationEntry> = {}): DeprecationEntry {
  return {
    id,
    title: id,
    area: 'interface_and_api',
    kind: 'removal',
    removal_milestone,
    planned_date: null,
    breaking: false,
    change: 'Removed.',
    replacement: null,
    identifiers: [],
    other_milestones: [],
    spec_section: '9.x',
    ...fields,
  };
}
