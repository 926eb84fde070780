import { buildExtractiveDigest, type Digest, type DigestSegment } from '../src/domain/digest';
import { scoreSentences } from '../src/domain/digest-extract';

/** The spoken words of a written sentence: lower case, no punctuation. */
const words = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, '').trim();

/** A turn as the recognizer times it: words 80 ms apart, `[700]` a silence before the next word. */
function turn(index: number, speaker: string, script: string): DigestSegment {
  const tokens: string[] = [];
  const pausesMs: number[] = [];
  let gap = 80;
  for (const token of script.split(/\s+/)) {
    const m = /^\[(\d+)\]$/.exec(token);
    if (m) gap = Number(m[1]);
    else {
      if (tokens.length > 0) pausesMs.push(gap);
      tokens.push(token);
      gap = 80;
    }
  }
  return { index, speaker, speakerName: null, startMs: index * 10_000, endMs: index * 10_000 + 9000, text: tokens.join(' '), pausesMs };
}

const MEETING: DigestSegment[] = [
  turn(0, 'speaker_0', 'good morning everyone [500] let us look at the release plan [700] the build is green since yesterday'),
  turn(1, 'speaker_1', 'great [600] we decided to ship the release on friday [650] sara will send the release notes'),
  turn(2, 'speaker_2', 'okay [300] so what is the status of the customer survey'),
  turn(3, 'speaker_0', 'the survey closes on monday [800] i will share the survey results with the team'),
];

function digestTexts(digest: Digest): string[] {
  return digest.sections.flatMap((s) => {
    if (s.kind === 'summary') return s.text ? s.text.split(/(?<=[.?]) /) : [];
    if (s.kind === 'action_item_list') return s.items.map((i) => i.text);
    return s.items;
  });
}

describe('digest sentences from unpunctuated speech', () => {
  it('reads sentence ends from the pauses the recognizer timed', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: MEETING });
    expect(digest.sections[1]).toMatchObject({ kind: 'decision_list', items: ['We decided to ship the release on Friday.'] });
    expect(digest.sections[2]).toMatchObject({
      kind: 'action_item_list',
      items: [
        { text: 'Sara will send the release notes.', owner: 'Sara' },
        { text: 'I will share the survey results with the team.', owner: null },
      ],
    });
  });

  it('runs a decision into the next sentence when no pauses were timed', () => {
    const untimed = MEETING.map(({ pausesMs: _, ...s }) => s);
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: untimed });
    expect(digest.sections[1]).toMatchObject({ items: ['Great we decided to ship the release on Friday sara will send the release notes.'] });
  });

  it('capitalizes and punctuates every summary, decision and action-item sentence', () => {
    const texts = digestTexts(buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: MEETING }));
    expect(texts.length).toBeGreaterThanOrEqual(5);
    for (const t of texts) expect(t).toMatch(/^[A-Z][^.?]*[a-z][.?]$/);
  });

  it('marks a spoken question with a question mark', () => {
    const digest = buildExtractiveDigest({ kind: 'INTERVIEW', language: 'en', segments: MEETING });
    expect(digest.sections[1]).toMatchObject({ kind: 'question_list', items: ['So what is the status of the customer survey?'] });
  });

  it('gives every sentence the turn it was said in, each word in place and none lost', () => {
    const sentences = scoreSentences(MEETING, 'en');
    for (const segment of MEETING) {
      const own = sentences.filter((s) => s.segment === segment);
      expect(own.map((s) => words(s.text)).join(' ')).toBe(segment.text);
    }
    expect(sentences.every((s) => MEETING.includes(s.segment))).toBe(true);
  });

  it('quotes every digest item from one real turn', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: MEETING });
    for (const t of digestTexts(digest)) expect(MEETING.filter((s) => s.text.includes(words(t)))).toHaveLength(1);
  });
});

describe('digest sentences from a written transcript', () => {
  const WRITTEN: DigestSegment[] = [
    'Good morning. We decided to ship on Friday, after the review.',
    'OK. John will fix the login bug before the NATS upgrade.',
    'what about the iOS build?',
  ].map((text, index) => ({ index, speaker: `speaker_${index}`, speakerName: null, startMs: index * 5000, endMs: index * 5000 + 4000, text, pausesMs: [] }));

  it('keeps its sentences exactly as written', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: WRITTEN });
    expect(digest.sections[1]).toMatchObject({ items: ['We decided to ship on Friday, after the review.'] });
    expect(digest.sections[2]).toMatchObject({ items: [{ text: 'John will fix the login bug before the NATS upgrade.', owner: 'John' }] });
    const questions = buildExtractiveDigest({ kind: 'LECTURE', language: 'en', segments: WRITTEN }).sections[2];
    expect(questions).toMatchObject({ items: ['what about the iOS build?'] });
  });
});
