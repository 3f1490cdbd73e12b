import { pageInfo, pageRequest, paginationHeaders } from './pagination';

describe('pagination', () => {
  it('defaults to the first page of 20', () => {
    expect(pageRequest({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(pageRequest({ page: 3, per_page: 10 })).toEqual({ page: 3, perPage: 10, offset: 20 });
  });

  it('names the next and previous pages, none past the ends', () => {
    expect(pageInfo(45, 1, 20)).toEqual({ total: 45, page: 1, perPage: 20, totalPages: 3, nextPage: 2, previousPage: null });
    expect(pageInfo(45, 3, 20)).toMatchObject({ nextPage: null, previousPage: 2 });
    expect(pageInfo(0, 1, 20)).toMatchObject({ totalPages: 1, nextPage: null, previousPage: null });
    expect(pageInfo(5, 9, 20)).toMatchObject({ nextPage: null, previousPage: 1 });
  });

  it('writes GitLab headers, empty when there is no next page', () => {
    expect(paginationHeaders(pageInfo(45, 3, 20))).toEqual({
      'X-Total': '45',
      'X-Total-Pages': '3',
      'X-Page': '3',
      'X-Per-Page': '20',
      'X-Next-Page': '',
      'X-Prev-Page': '2',
    });
  });
});
