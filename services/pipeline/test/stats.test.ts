import { stats } from '../src/domain/digest';
import { isQuestion, splitSentences } from '../src/domain/text-units';

describe('stats', () => {
  const segments = [
    {
      speaker: 'speaker_0',
      speakerName: 'Sara',
      startMs: 0,
      endMs: 4000,
      text: 'good morning everyone what is the status of the release',
    },
    {
      speaker: 'speaker_1',
      speakerName: null,
      startMs: 4500,
      endMs: 9000,
      text: 'the release is ready. Can we ship it on Friday?',
    },
    { speaker: 'speaker_1', speakerName: null, startMs: 9100, endMs: 10000, text: 'i think so' },
    { speaker: 'speaker_0', speakerName: 'Sara', startMs: 11000, endMs: 12000, text: 'great thank you' },
  ];

  it('counts speaking time, turns and questions per speaker in order of first appearance', () => {
    expect(stats(segments)).toEqual({
      speakers: [
        { speaker: 'speaker_0', speakerName: 'Sara', speakingMs: 5000, share: 0.481, turns: 2, questions: 1 },
        { speaker: 'speaker_1', speakerName: null, speakingMs: 5400, share: 0.519, turns: 1, questions: 1 },
      ].map((s) => ({ ...s, share: expect.closeTo(s.share, 2) })),
      totalTurns: 3,
      questions: 2,
      durationMs: 12000,
    });
  });

  it('uses the audio length when given', () => {
    expect(stats(segments, { durationMs: 15000 }).durationMs).toBe(15000);
  });

  it('counts nothing for no segments', () => {
    expect(stats([])).toEqual({ speakers: [], totalTurns: 0, questions: 0, durationMs: 0 });
  });
});

describe('isQuestion', () => {
  it.each([
    ['what is the plan', true],
    ['how do we ship this', true],
    ['do you have the numbers', true],
    ['should we wait', true],
    ['Is it done?', true],
    ['do the review tomorrow', false],
    ['we know what to do', false],
    ['the plan is ready.', false],
  ])('%s -> %s', (sentence, expected) => {
    expect(isQuestion(sentence, 'en')).toBe(expected);
  });

  it('knows Persian question words and the Persian question mark', () => {
    expect(isQuestion('آیا گزارش آماده است', 'fa')).toBe(true);
    expect(isQuestion('گزارش آماده است؟', 'fa')).toBe(true);
    expect(isQuestion('گزارش آماده است', 'fa')).toBe(false);
  });
});

describe('splitSentences', () => {
  it('splits punctuated text at its stops', () => {
    expect(splitSentences('The plan is ready. Can we ship it? Yes!', 'en')).toEqual([
      'The plan is ready.',
      'Can we ship it?',
      'Yes!',
    ]);
  });

  it('splits unpunctuated text before questions and decisions, keeping the words verbatim', () => {
    const text =
      'good morning everyone thanks for coming what is the status of the billing system we decided to move it';
    const parts = splitSentences(text, 'en');
    expect(parts).toEqual([
      'good morning everyone',
      'thanks for coming',
      'what is the status of the billing system',
      'we decided to move it',
    ]);
    expect(parts.join(' ')).toBe(text);
  });
});
