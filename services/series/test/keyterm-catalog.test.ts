import { KEYTERM_FORBIDDEN_CHARS, LIMITS } from '@mm/contract';
import { KEYTERM_RULES } from '@mm/text';

// libs/text has no dependencies, so it restates the keyterm limits; this keeps them equal to the catalog.
describe('the keyterm rules of libs/text', () => {
  it('match the contract catalog', () => {
    expect(KEYTERM_RULES.maxTerms).toBe(LIMITS.keytermsMax);
    expect(KEYTERM_RULES.maxChars).toBe(LIMITS.keytermMaxChars);
    expect(KEYTERM_RULES.maxWords).toBe(LIMITS.keytermMaxWords);
    expect([...KEYTERM_RULES.forbiddenChars].sort()).toEqual([...KEYTERM_FORBIDDEN_CHARS].sort());
  });
});
