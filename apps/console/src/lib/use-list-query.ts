import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { TabLink } from '@console/components/tab-nav';
import { useDebounced } from './use-debounced';

/** A list's tabs kept in one parameter of the address (`?status=closed`); the default tab is its absence. */
export interface ListTabs<Tab extends string> {
  param: string;
  values: readonly Tab[];
  default: Tab;
}

/**
 * A list page's state in its address, so back, reload and a shared link keep it: the tab (when the
 * list has `tabs`), the search (`?search=`), the page (`?page=`, absent on the first) and any other
 * parameter the page reads from `params`.
 *
 * - `setQuery` changes some parameters (null or '' removes one) in place of the current entry.
 * - `tab` is the tab shown, `tabLink(id)` the address of another (search and filters kept, page 1);
 *   `tabLinks(items, counts)` are TabNav's tabs, with their counts ('–' until known) when given.
 * - `search` is the search box's text and `setSearch` its change handler (it also goes back to page
 *   1), both in `searchField` to spread into SearchField; `query` is the trimmed text once the user
 *   pauses, for the API.
 * - `paging` is the page and its change handler, spread into Pagination.
 */
export function useListQuery<Tab extends string = string>(tabs?: ListTabs<Tab>) {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const setQuery = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    setParams(next, { replace: true });
  };
  const page = Math.max(1, Number(params.get('page')) || 1);

  const requested = tabs ? params.get(tabs.param) : null;
  const tab = (tabs?.values.find((value) => value === requested) ?? tabs?.default) as Tab;
  const tabLink = (id: Tab) => {
    // The tab and search first, then the other parameters as they are.
    const next = new URLSearchParams();
    if (tabs && id !== tabs.default) next.set(tabs.param, id);
    const searched = params.get('search');
    if (searched) next.set('search', searched);
    for (const [name, value] of params) if (![tabs?.param, 'search', 'page'].includes(name)) next.set(name, value);
    const text = next.toString();
    return `${pathname}${text ? `?${text}` : ''}`;
  };
  const tabLinks = (items: ReadonlyArray<{ id: Tab; label: string }>, counts?: Partial<Record<Tab, number>> | null): TabLink[] =>
    items.map((item) => ({
      id: item.id,
      label: item.label,
      count: counts === undefined ? undefined : (counts?.[item.id] ?? '–'),
      to: tabLink(item.id),
      active: item.id === tab,
    }));

  // The box keeps what is typed (spaces included); the address keeps it trimmed, and sets the box
  // when it changes otherwise (back, a link).
  const searched = params.get('search') ?? '';
  const [search, setSearchText] = useState(searched);
  const [seen, setSeen] = useState(searched);
  if (seen !== searched) {
    setSeen(searched);
    if (search.trim() !== searched) setSearchText(searched);
  }
  const setSearch = (text: string) => {
    setSearchText(text);
    setQuery({ search: text.trim(), page: null });
  };
  const query = useDebounced(search.trim());

  const paging = { page, onPage: (next: number) => setQuery({ page: next === 1 ? null : String(next) }) };
  return { params, setQuery, page, paging, tab, tabLink, tabLinks, search, setSearch, searchField: { value: search, onChange: setSearch }, query };
}
