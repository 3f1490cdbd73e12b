import { migrationChecksum, scriptMatchesChecksum } from './migration-files';

describe('migration checksums (Prisma semantics)', () => {
  it('is the sha256 hex of the file', () => {
    expect(migrationChecksum('hello')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  });

  it('matches a script whatever its line endings', () => {
    const unix = 'CREATE TABLE a ();\nCREATE TABLE b ();\n';
    const windows = unix.replace(/\n/g, '\r\n');
    expect(scriptMatchesChecksum(windows, migrationChecksum(unix))).toBe(true);
    expect(scriptMatchesChecksum(unix, migrationChecksum(windows))).toBe(true);
  });

  it('does not match a changed script', () => {
    expect(scriptMatchesChecksum('abc\n', migrationChecksum('abc'))).toBe(false);
  });

  it('matches checksums old engines wrote without zero-padding', () => {
    // sha256("abcd") has bytes below 0x10, so the unpadded form is shorter than 64 characters.
    const digest = Buffer.from(migrationChecksum('abcd'), 'hex');
    const unpadded = [...digest].map((byte) => byte.toString(16)).join('');
    expect(unpadded.length).toBeLessThan(64);
    expect(scriptMatchesChecksum('abcd', unpadded)).toBe(true);
  });
});
