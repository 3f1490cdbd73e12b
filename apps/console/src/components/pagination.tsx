interface PaginationProps {
  page: number;
  total: number | null;
  perPage: number;
  nextPage?: number | null;
  onPage(page: number): void;
}

/** Previous / next with "page X of Y", from the API's X-Total and X-Next-Page. */
export function Pagination({ page, total, perPage, nextPage, onPage }: PaginationProps) {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / perPage));
  const hasNext = nextPage !== undefined && nextPage !== null ? true : pages !== null && page < pages;
  if (page === 1 && !hasNext) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ‹ Previous
      </button>
      <span aria-live="polite">
        Page {page}
        {pages !== null && ` of ${pages}`}
      </span>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next ›
      </button>
    </nav>
  );
}
