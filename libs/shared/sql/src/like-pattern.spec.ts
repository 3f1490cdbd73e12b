import { likePattern } from './like-pattern';

describe('likePattern', () => {
  it('finds the text anywhere', () => {
    expect(likePattern('disk full')).toBe('%disk full%');
  });

  it('escapes the characters LIKE would treat as wildcards or escapes', () => {
    expect(likePattern('50%_of\\disk')).toBe('%50\\%\\_of\\\\disk%');
  });
});
