import {
  digestNotes,
  digestPeople,
  digestTerms,
  digestTopics,
  sectionTexts,
  titlePhrases,
  type DigestForNotes,
} from '../src/domain/digest-notes';
import { placedWords } from '../src/domain/digest-words';

const digest = (over: Partial<DigestForNotes> = {}): DigestForNotes => ({
  language: 'en',
  title: 'Customer survey, login problem and budget',
  sections: [
    {
      kind: 'summary',
      title: 'Summary',
      text: 'We decided to ship the release on Friday. The survey asked Maria about the search page.',
    },
    { kind: 'decision_list', title: 'Decisions', items: ['We decided to ship the release on Friday'] },
    {
      kind: 'action_item_list',
      title: 'Action items',
      items: [{ text: 'john will fix the login problem', owner: 'John' }],
    },
  ],
  speakers: [{ name: 'Sara Ahmadi' }, { name: null }],
  ...over,
});

describe('what a first digest teaches memory', () => {
  it('reads section texts in order: summary text, then list items and action item texts', () => {
    expect(sectionTexts(digest().sections)).toEqual([
      'We decided to ship the release on Friday. The survey asked Maria about the search page.',
      'We decided to ship the release on Friday',
      'john will fix the login problem',
    ]);
  });

  it('splits sentences and marks where each word stands and whether a comma follows it', () => {
    const words = placedWords(['Sara, please send it. Then Omid will.']);
    expect(words.map((w) => [w.text, w.sentence, w.position, w.beforeComma])).toEqual([
      ['Sara', 0, 0, true],
      ['please', 0, 1, false],
      ['send', 0, 2, false],
      ['it', 0, 3, false],
      ['Then', 1, 0, false],
      ['Omid', 1, 1, false],
      ['will', 1, 2, false],
    ]);
  });

  it('learns people from given speaker names, action item owners and capitalized names inside sentences', () => {
    expect(digestPeople(digest())).toEqual(['Sara Ahmadi', 'John', 'Maria']);
  });

  it('does not take weekdays, months, sentence openers, keyterms or words also written in lower case for people', () => {
    const d = digest({
      speakers: [],
      sections: [
        {
          kind: 'summary',
          text: 'Great news. We moved Search to March because Kubernetes was slow; search is hard. Omid, please call Leila on Monday.',
        },
      ],
    });
    expect(digestPeople(d, ['kubernetes'])).toEqual(['Omid', 'Leila']);
  });

  it('takes only given names and owners in a Persian digest (Persian has no capitals)', () => {
    const d = digest({
      language: 'fa',
      title: 'بودجه',
      speakers: [{ name: 'سارا' }],
      sections: [{ kind: 'action_item_list', items: [{ text: 'علی گزارش را می‌فرستد', owner: 'علی' }] }],
    });
    expect(digestPeople(d)).toEqual(['سارا', 'علی']);
  });

  it('learns vocabulary-like words and plain words the digest repeats three times as terms', () => {
    const d = digest({
      sections: [
        {
          kind: 'summary',
          text: 'The NATS cluster and GitHub runners moved to S3. The cluster restarts daily; cluster metrics look fine.',
        },
      ],
    });
    expect(digestTerms(d)).toEqual(['NATS', 'GitHub', 'S3', 'cluster']);
  });

  it('leaves names out of terms and does not repeat a term twice', () => {
    expect(
      digestTerms(digest({ sections: [{ kind: 'summary', text: 'Ask Maria. Maria knows. Maria decides.' }] }), [
        'Maria',
      ]),
    ).toEqual([]);
    expect(
      digestTerms(
        digest({
          sections: [
            { kind: 'summary', text: 'NATS is up.' },
            { kind: 'decision_list', items: ['Keep NATS', 'nats stays'] },
          ],
        }),
      ),
    ).toEqual(['NATS']);
  });

  it('takes the title phrases as topics, stopwords at the ends and names left out', () => {
    expect(titlePhrases('Customer survey, the login problem and NATS upgrade', 'en')).toEqual([
      'customer survey',
      'login problem',
      'NATS upgrade',
    ]);
    expect(titlePhrases('Weekly standup', 'en')).toEqual(['standup']);
    expect(titlePhrases('Meeting', 'en')).toEqual([]);
    expect(titlePhrases('Sara and budget', 'en', new Set(['sara']))).toEqual(['budget']);
    expect(titlePhrases('بودجه، استخدام و جلسه', 'fa')).toEqual(['بودجه', 'استخدام']);
  });

  it('writes topics as "Works on: ..." from the title, then summary words said twice, at most three', () => {
    expect(digestTopics(digest())).toEqual([
      'Works on: customer survey',
      'Works on: login problem',
      'Works on: budget',
    ]);
    const untitled = digest({
      title: null,
      sections: [{ kind: 'summary', text: 'The budget is short. The budget needs review. Hiring waits.' }],
    });
    expect(digestTopics(untitled)).toEqual(['Works on: budget']);
    expect(digestTopics(digest({ language: 'fa', title: 'بودجه', sections: [] }))).toEqual(['کار روی: بودجه']);
  });

  it('puts it together for MemoryService.learn', () => {
    expect(digestNotes(digest())).toEqual({
      people: ['Sara Ahmadi', 'John', 'Maria'],
      terms: [],
      topics: ['Works on: customer survey', 'Works on: login problem', 'Works on: budget'],
    });
  });
});
