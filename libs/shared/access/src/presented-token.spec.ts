import { presentedToken } from './presented-token';

describe('presentedToken', () => {
  it('reads PRIVATE-TOKEN and Authorization: Bearer', () => {
    expect(presentedToken({ 'private-token': 'abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'bearer   abc  ' })).toBe('abc');
  });

  it('prefers PRIVATE-TOKEN when both are sent', () => {
    expect(presentedToken({ 'private-token': 'private', authorization: 'Bearer bearer' })).toBe('private');
  });

  it('presents nothing for other schemes, blanks and malformed values', () => {
    expect(presentedToken({})).toBeUndefined();
    expect(presentedToken({ authorization: 'Basic YTpi' })).toBeUndefined();
    expect(presentedToken({ authorization: 'Bearer' })).toBeUndefined();
    expect(presentedToken({ authorization: 'Bearer a b' })).toBeUndefined();
    expect(presentedToken({ 'private-token': '  ' })).toBeUndefined();
    expect(presentedToken({ 'private-token': ['a', 'b'] })).toBeUndefined();
  });
});
