import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { DeprecationFilters, useDeprecations } from '@console/api/queries';
import { DEPRECATION_AREAS, DeprecationEntry } from '@console/api/types';
import { ErrorMessage, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useListQuery } from '@console/lib/use-list-query';
import { AREA_TITLES, compareMilestones, entryLink, kindLabel } from './deprecation-labels';
import { Options } from '@console/components/options';

const NO_FILTERS: DeprecationFilters = { q: '', removal_milestone: '', breaking: '', area: '' };

/** The filters chosen, from the address (`?removal_milestone=&breaking=&area=`); an unknown value is no filter. */
function filtersOf(params: URLSearchParams): Omit<DeprecationFilters, 'q'> {
  const breaking = params.get('breaking');
  const area = params.get('area');
  return {
    removal_milestone: params.get('removal_milestone') ?? '',
    breaking: breaking === 'true' || breaking === 'false' ? breaking : '',
    area: DEPRECATION_AREAS.find((known) => known === area) ?? '',
  };
}

/** The catalogue with its filters (GET /deprecations); `?entry=<id>` shows one entry, as findings link to it. */
export function CataloguePanel() {
  const { params, setQuery, search, setSearch, query } = useListQuery();
  const entryId = params.get('entry');
  const filters = filtersOf(params);
  const active = { ...filters, q: query };
  const entries = useDeprecations(entryId ? NO_FILTERS : active);
  const everything = useDeprecations(NO_FILTERS);
  const milestones = [...new Set((everything.data ?? []).map((entry) => entry.removal_milestone))].sort(compareMilestones);

  const shown = entryId ? (entries.data ?? []).filter((entry) => entry.id === entryId) : (entries.data ?? []);
  return (
    <div className="catalogue">
      {entryId ? (
        <p className="toolbar">
          Showing the entry <code>{entryId}</code>.{' '}
          <button type="button" className="link-button" onClick={() => setQuery({ entry: null })}>
            Show the whole catalogue
          </button>
        </p>
      ) : (
        <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
          <Field label="Search" className="field-grow">
            {(id) => <input id={id} type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="e.g. CI_BUILD_ID, cobertura" />}
          </Field>
          <Field label="Removal milestone">
            {(id) => (
              <select id={id} value={filters.removal_milestone} onChange={(event) => setQuery({ removal_milestone: event.target.value })}>
                <option value="">Any</option>
                <Options values={milestones} label={(milestone) => milestone} />
              </select>
            )}
          </Field>
          <Field label="Breaking">
            {(id) => (
              <select id={id} value={filters.breaking} onChange={(event) => setQuery({ breaking: event.target.value })}>
                <option value="">Any</option>
                <option value="true">Breaking only</option>
                <option value="false">Not breaking</option>
              </select>
            )}
          </Field>
          <Field label="Area">
            {(id) => (
              <select id={id} value={filters.area} onChange={(event) => setQuery({ area: event.target.value })}>
                <option value="">Any</option>
                <Options values={DEPRECATION_AREAS} label={(area) => AREA_TITLES[area]} />
              </select>
            )}
          </Field>
        </form>
      )}
      <ErrorMessage error={entries.error} />
      {entries.isPending && <Loading what="the catalogue" />}
      {entries.data && (
        <p className="muted" role="status">
          {entryId ? '' : `${shown.length} ${shown.length === 1 ? 'entry' : 'entries'}`}
          {entryId && shown.length === 0 ? `No entry ${entryId} in the catalogue.` : ''}
        </p>
      )}
      <ol className="entries">
        {shown.map((entry) => (
          <EntryCard key={entry.id} entry={entry} highlighted={entry.id === entryId} />
        ))}
      </ol>
    </div>
  );
}

function EntryCard({ entry, highlighted }: { entry: DeprecationEntry; highlighted: boolean }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.focus();
  }, [highlighted]);
  return (
    <li className={highlighted ? 'card entry entry-highlighted' : 'card entry'} id={entry.id} ref={ref} tabIndex={highlighted ? -1 : undefined}>
      <div className="entry-head">
        <h2>
          <Link to={entryLink(entry.id)}>{entry.title}</Link>
        </h2>
        <span className="badge">{entry.removal_milestone}</span>
        {entry.breaking && <span className="badge badge-breaking">Breaking</span>}
      </div>
      <p className="muted small">
        {kindLabel(entry.kind)} in {entry.removal_milestone}
        {entry.planned_date ? ` (planned ${entry.planned_date})` : ''} · {AREA_TITLES[entry.area]} · spec {entry.spec_section}
      </p>
      <p>{entry.change}</p>
      {entry.replacement && (
        <p>
          <strong>Instead:</strong> {entry.replacement}
        </p>
      )}
      {entry.identifiers.length > 0 && (
        <ul className="identifiers" aria-label="Identifiers">
          {entry.identifiers.map((identifier) => (
            <li key={`${identifier.kind}:${identifier.name}`}>
              <code>{identifier.name}</code>
              {identifier.replacement && (
                <>
                  {' '}
                  → <code>{identifier.replacement}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {entry.other_milestones.length > 0 && (
        <ul className="stages">
          {entry.other_milestones.map((stage) => (
            <li key={`${stage.milestone}:${stage.kind}`}>
              {stage.milestone}: {kindLabel(stage.kind)}. {stage.change}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
