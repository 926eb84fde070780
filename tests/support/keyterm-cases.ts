/**
 * The contract's keyterm rules, one broken rule per case, written from API-CONTRACT.md: each term
 * trimmed with runs of spaces collapsed; at most 100 terms; each 1 to 49 characters and at most 5
 * words; none of < > { } [ ] \; no term twice. `names` is what the message must mention.
 */
export interface KeytermCase {
  rule: string;
  keyterms: unknown[];
  names: RegExp;
}

const hundred = Array.from({ length: 100 }, (_, i) => `term ${i}`);

export const BROKEN_KEYTERM_RULES: KeytermCase[] = [
  { rule: 'more than 100 terms', keyterms: [...hundred, 'one more'], names: /101.*100/ },
  { rule: 'an empty term', keyterms: ['ok', ''], names: /keyterms\[1\].*empty/ },
  { rule: 'a term of spaces only', keyterms: ['   '], names: /keyterms\[0\].*empty/ },
  { rule: 'a term of 50 characters', keyterms: ['x'.repeat(50)], names: /keyterms\[0\].*50 characters/ },
  { rule: 'a term of 6 words', keyterms: ['one two three four five six'], names: /keyterms\[0\].*6 words/ },
  { rule: 'a term with <', keyterms: ['a<b'], names: /keyterms\[0\].*"<"/ },
  { rule: 'a term with >', keyterms: ['a>b'], names: /keyterms\[0\].*">"/ },
  { rule: 'a term with {', keyterms: ['a{b'], names: /keyterms\[0\].*"\{"/ },
  { rule: 'a term with }', keyterms: ['a}b'], names: /keyterms\[0\].*"\}"/ },
  { rule: 'a term with [', keyterms: ['a[b'], names: /keyterms\[0\].*"\["/ },
  { rule: 'a term with ]', keyterms: ['a]b'], names: /keyterms\[0\].*"\]"/ },
  { rule: 'a term with a backslash', keyterms: ['a\\b'], names: /keyterms\[0\].*"\\"/ },
  { rule: 'the same term twice', keyterms: ['Kubernetes', 'Kubernetes'], names: /keyterms\[1\]/ },
  {
    rule: 'the same term twice after collapsing spaces',
    keyterms: ['New  York', 'New York'],
    names: /keyterms\[1\].*keyterms\[0\]/,
  },
  { rule: 'the same term twice in another case', keyterms: ['nats', 'NATS'], names: /keyterms\[1\].*keyterms\[0\]/ },
  { rule: 'a term that is not a string', keyterms: ['ok', 42], names: /keyterms\[1\]/ },
  { rule: 'a control character', keyterms: ['bad\u0000term'], names: /keyterms\[0\].*U\+0000/ },
];

/** Terms at every edge the rules allow, and how they are saved. */
export const EDGE_KEYTERMS = {
  sent: [
    '  Kubernetes  ',
    'New    York',
    'x'.repeat(49),
    'one two three four five',
    'زمان\u200cبندی',
    'tab\tseparated',
  ],
  saved: ['Kubernetes', 'New York', 'x'.repeat(49), 'one two three four five', 'زمان\u200cبندی', 'tab separated'],
};

export const HUNDRED_TERMS = hundred;
