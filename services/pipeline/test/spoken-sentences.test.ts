import {
  asksQuestion,
  isWrittenTranscript,
  spokenSentences,
  turnPauses,
  writeSentence,
} from '../src/domain/spoken-sentences';

/** Words that touch, as the decoder times fluent speech; `[700]` puts a 700 ms silence before the next word. */
function speak(script: string): { text: string; pausesMs: number[] } {
  const words: string[] = [];
  const pausesMs: number[] = [];
  let gap = 0;
  for (const token of script.split(/\s+/)) {
    const m = /^\[(\d+)\]$/.exec(token);
    if (m) {
      gap = Number(m[1]);
      continue;
    }
    if (words.length > 0) pausesMs.push(gap);
    words.push(token);
    gap = 0;
  }
  return { text: words.join(' '), pausesMs };
}

const sentences = (script: string): string[] => {
  const { text, pausesMs } = speak(script);
  return spokenSentences(text, pausesMs, 'en').map((s) => writeSentence(s, 'en'));
};

describe('spokenSentences', () => {
  it('ends a sentence at a long silence and not at a short one', () => {
    expect(sentences('the migration finished yesterday [600] the release is ready [250] for testing')).toEqual([
      'The migration finished yesterday.',
      'The release is ready for testing.',
    ]);
  });

  it('does not end a sentence on a word that cannot end one unless the silence is very long', () => {
    expect(sentences('we will ship the [500] release on friday')).toEqual(['We will ship the release on Friday.']);
    const misheard = ['There is a lot to do for.', 'Ten of clubs.'];
    expect(sentences('there is a lot to do for [950] ten of clubs')).toEqual(misheard);
  });

  it('ends a sentence at a short silence when the next words open a new thought', () => {
    const fine = 'The budget is fine.';
    expect(sentences('the budget is fine [40] so we can hire people')).toEqual([fine, 'So we can hire people.']);
    expect(sentences('the budget is fine [40] can we hire two people')).toEqual([fine, 'Can we hire two people?']);
  });

  it('keeps a discourse word inside the sentence when nobody paused before it', () => {
    expect(sentences('we tested login search and so on')).toEqual(['We tested login search and so on.']);
  });

  it('does not cut a question after its question word', () => {
    expect(sentences('so what [60] is the status of the survey')).toEqual(['So what is the status of the survey?']);
  });

  it('leaves no lone word behind unless it stands alone', () => {
    expect(sentences('send the notes [700] tomorrow')).toEqual(['Send the notes tomorrow.']);
    expect(sentences('okay [700] we ship on friday')).toEqual(['Okay.', 'We ship on Friday.']);
  });

  it('ignores pauses that no longer match the words, as after an edit', () => {
    const { text } = speak('the migration finished yesterday the release is ready');
    expect(spokenSentences(text, [900], 'en')).toEqual([text]);
  });

  it('still splits at word cues when there are no pauses at all', () => {
    expect(spokenSentences('the release is almost ready what is the status of the survey', undefined, 'en')).toEqual([
      'the release is almost ready',
      'what is the status of the survey',
    ]);
  });
});

describe('writeSentence', () => {
  it('capitalizes the first word, "I" with its contractions, weekdays and months', () => {
    expect(writeSentence("i think i'll send it on monday and i'm back in september", 'en')).toBe(
      "I think I'll send it on Monday and I'm back in September.",
    );
  });

  it('leaves "may" and "march" alone, since they are mostly verbs in speech', () => {
    expect(writeSentence('we may march on', 'en')).toBe('We may march on.');
  });

  it('ends a question with a question mark and a statement with a full stop', () => {
    expect(writeSentence('can we move the demo to thursday', 'en')).toBe('Can we move the demo to Thursday?');
    expect(writeSentence('what is the status of the survey', 'en')).toBe('What is the status of the survey?');
    expect(writeSentence('what we decided is to wait', 'en')).toBe('What we decided is to wait.');
    expect(writeSentence('آیا کسی سوالی دارد', 'fa')).toBe('آیا کسی سوالی دارد؟');
  });

  it('keeps the mark a sentence already has', () => {
    expect(writeSentence('Is it done?', 'en')).toBe('Is it done?');
  });
});

describe('asksQuestion', () => {
  it('needs a verb of asking after a wh-word', () => {
    expect(asksQuestion('how do we ship it', 'en')).toBe(true);
    expect(asksQuestion("what's next", 'en')).toBe(true);
    expect(asksQuestion('how we ship it matters', 'en')).toBe(false);
    expect(asksQuestion('should we wait', 'en')).toBe(true);
    expect(asksQuestion('so what is the status', 'en')).toBe(true);
  });
});

describe('isWrittenTranscript', () => {
  it('takes punctuated, cased text as written', () => {
    expect(isWrittenTranscript(['We decided to ship on Friday.', 'Sara, please send the notes.', 'yeah'])).toBe(true);
  });

  it('takes recognizer output as unwritten even where a keyterm brought a capital', () => {
    expect(isWrittenTranscript(['the NATS cluster is down', 'we moved to GitHub actions', 'okay thanks'])).toBe(false);
    expect(isWrittenTranscript(['node.js is slow here', 'we ship on friday'])).toBe(false);
  });
});

describe('turnPauses', () => {
  const w = (word: string, startMs: number, endMs: number) => ({ word, startMs, endMs });

  it('gives each turn the silences between its own words', () => {
    const words = [w('we', 0, 200), w('ship', 260, 500), w('friday', 1200, 1600)];
    words.push(w('okay', 4000, 4300), w('thanks', 4350, 4700));
    expect(turnPauses(words, [{ text: 'we ship friday' }, { text: 'okay thanks' }])).toEqual([[60, 700], [50]]);
  });

  it('puts no silence inside a word of several tokens, such as a keyterm phrase', () => {
    const words = [w('the', 0, 100), w('release notes', 150, 900), w('are', 1500, 1600)];
    expect(turnPauses(words, [{ text: 'the release notes are' }])).toEqual([[50, 0, 600]]);
  });

  it('gives no pauses to a turn whose words do not match', () => {
    expect(turnPauses([w('hello', 0, 300)], [{ text: 'goodbye' }])).toEqual([[]]);
  });
});
