import { useSearchParams } from 'react-router';

/**
 * A list page's state in its address (tab, search, page...), so back, reload and a shared link
 * keep it: the current parameters, the page number, and `setQuery` to change some of them (null or
 * '' removes one) in place of the current entry.
 */
export function useListQuery() {
  const [params, setParams] = useSearchParams();
  const setQuery = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    setParams(next, { replace: true });
  };
  return { params, page: Math.max(1, Number(params.get('page')) || 1), setQuery };
}
