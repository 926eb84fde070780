import { keptDisplayName } from '../src/domain/display-name';

describe('a display name as it is kept', () => {
  it('is trimmed, blank is no name (null), and not sent stays not sent', () => {
    expect(keptDisplayName('  Sara  ')).toBe('Sara');
    expect(keptDisplayName('')).toBeNull();
    expect(keptDisplayName(' \t ')).toBeNull();
    expect(keptDisplayName(null)).toBeNull();
    expect(keptDisplayName(undefined)).toBeUndefined();
  });
});
