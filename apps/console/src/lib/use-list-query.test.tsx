import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListQuery } from './use-list-query';

type Tab = 'open' | 'closed' | 'all';
let list: ReturnType<typeof useListQuery<Tab>>;

/** Hands the hook's latest answer to the test. */
function Probe({ report }: { report(current: typeof list): void }) {
  report(useListQuery<Tab>({ param: 'status', values: ['open', 'closed', 'all'], default: 'open' }));
  return null;
}

function renderAt(address: string) {
  const router = createMemoryRouter([{ path: '/things', element: <Probe report={(current) => (list = current)} /> }], { initialEntries: [address] });
  render(<RouterProvider router={router} />);
  return router;
}

const addressOf = (router: ReturnType<typeof renderAt>) => `${router.state.location.pathname}${router.state.location.search}`;

describe('useListQuery', () => {
  it('reads the tab, search and page from the address, with the default tab and page 1 when absent or unknown', () => {
    renderAt('/things?status=closed&search=disk&page=3&sort=created');
    expect([list.tab, list.search, list.page]).toEqual(['closed', 'disk', 3]);
    expect(list.tabLink('all')).toBe('/things?status=all&search=disk&sort=created');
    expect(list.tabLink('open')).toBe('/things?search=disk&sort=created');

    renderAt('/things?status=bogus&page=-2');
    expect([list.tab, list.search, list.page]).toEqual(['open', '', 1]);
  });

  it('builds TabNav tabs, with counts only when the list has them', () => {
    renderAt('/things?status=closed');
    const items = [
      { id: 'open' as const, label: 'Open' },
      { id: 'closed' as const, label: 'Closed' },
    ];
    expect(list.tabLinks(items, { open: 4 })).toEqual([
      { id: 'open', label: 'Open', count: 4, to: '/things', active: false },
      { id: 'closed', label: 'Closed', count: '–', to: '/things?status=closed', active: true },
    ]);
    expect(list.tabLinks(items).map((tab) => tab.count)).toEqual([undefined, undefined]);
  });

  it('keeps the typed search trimmed in the address and goes back to page 1; paging removes page=1', () => {
    const router = renderAt('/things?page=2');
    act(() => list.setSearch('disk '));
    expect(list.search).toBe('disk ');
    expect(addressOf(router)).toBe('/things?search=disk');

    act(() => list.paging.onPage(3));
    expect(addressOf(router)).toBe('/things?search=disk&page=3');
    act(() => list.paging.onPage(1));
    expect(addressOf(router)).toBe('/things?search=disk');
  });

  it('follows the address when it changes otherwise (back, a link)', async () => {
    const router = renderAt('/things?search=disk');
    await act(() => router.navigate('/things?search=cpu'));
    expect(list.search).toBe('cpu');
    await act(() => router.navigate(-1));
    expect(list.search).toBe('disk');
  });
});
