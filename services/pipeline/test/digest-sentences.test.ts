import { buildExtractiveDigest, type Digest, type DigestSegment } from '../src/domain/digest';
import { scoreSentences } from '../src/domain/digest-extract';
import { turnPauses } from '../src/domain/spoken-sentences';
import { buildTurns, type SpeakerWord } from '../src/domain/turns';

/** The spoken words of a written sentence: lower case, no punctuation. */
const words = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, '')
    .trim();

/** A turn as the recognizer times it: words that touch, `[700]` a silence before the next word. */
function turn(index: number, speaker: string, script: string): DigestSegment {
  const tokens: string[] = [];
  const pausesMs: number[] = [];
  let gap = 0;
  for (const token of script.split(/\s+/)) {
    const m = /^\[(\d+)\]$/.exec(token);
    if (m) gap = Number(m[1]);
    else {
      if (tokens.length > 0) pausesMs.push(gap);
      tokens.push(token);
      gap = 0;
    }
  }
  const startMs = index * 10_000;
  return { index, speaker, speakerName: null, startMs, endMs: startMs + 9000, text: tokens.join(' '), pausesMs };
}

const MEETING: DigestSegment[] = [
  turn(0, 'speaker_0', 'good morning everyone [500] let us look at the release plan [700] the build is green'),
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
    const decision = 'We decided to ship the release on Friday.';
    expect(digest.sections[1]).toMatchObject({ kind: 'decision_list', items: [decision] });
    expect(digest.sections[2]).toMatchObject({
      kind: 'action_item_list',
      items: [
        { text: 'Sara will send the release notes.', owner: 'Sara' },
        { text: 'I will share the survey results with the team.', owner: null },
      ],
    });
  });

  it('lists no action item that is only its cue said aloud ("Action items." before the tasks)', () => {
    const cued = [
      turn(0, 'speaker_0', 'good morning everyone [500] we agreed to ship version two on friday'),
      turn(1, 'speaker_1', 'action items [700] maria will prepare the release notes [700] thanks all'),
      turn(2, 'speaker_0', 'next steps [600] follow up [600] okay'),
    ];
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: cued });
    expect(digest.sections[2]).toMatchObject({
      kind: 'action_item_list',
      items: [{ text: 'Maria will prepare the release notes.', owner: 'Maria' }],
    });
  });

  it('runs a decision into the next sentence when no pauses were timed', () => {
    const untimed = MEETING.map(({ pausesMs: _, ...s }) => s);
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: untimed });
    const runOn = 'Great we decided to ship the release on Friday sara will send the release notes.';
    expect(digest.sections[1]).toMatchObject({ items: [runOn] });
  });

  it('capitalizes and punctuates every summary, decision and action-item sentence', () => {
    const texts = digestTexts(buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: MEETING }));
    expect(texts.length).toBeGreaterThanOrEqual(5);
    for (const t of texts) expect(t).toMatch(/^[A-Z][^.?]*[a-z][.?]$/);
  });

  it('marks a spoken question with a question mark', () => {
    const digest = buildExtractiveDigest({ kind: 'INTERVIEW', language: 'en', segments: MEETING });
    const question = 'So what is the status of the customer survey?';
    expect(digest.sections[1]).toMatchObject({ kind: 'question_list', items: [question] });
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
  ].map((text, index) => ({
    index,
    speaker: `speaker_${index}`,
    speakerName: null,
    startMs: index * 5000,
    endMs: index * 5000 + 4000,
    text,
  }));

  it('keeps its sentences exactly as written', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: WRITTEN });
    expect(digest.sections[1]).toMatchObject({ items: ['We decided to ship on Friday, after the review.'] });
    const action = { text: 'John will fix the login bug before the NATS upgrade.', owner: 'John' };
    expect(digest.sections[2]).toMatchObject({ items: [action] });
    const questions = buildExtractiveDigest({ kind: 'LECTURE', language: 'en', segments: WRITTEN }).sections[2];
    expect(questions).toMatchObject({ items: ['what about the iOS build?'] });
  });
});

// What pocketsphinx (the pipeline's settings) wrote for the flite standup of the e2e tests, with the
// voice clustering's speakers: `word startMs endMs speaker`. Lower case, no punctuation, misheard
// words and all; the only silences inside turns are 70 ms, 70 ms, 180 ms (the comma after
// "Sarah") and 90 ms.
const STANDUP_WORDS = [
  'the 170 330 0 | morning 330 770 0 | everyone 770 1280 0 | let 1310 1540 0 | us 1540 1830 0 | start 1830 2160 0',
  'the 2160 2330 0 | weekly 2330 2760 0 | planning 2760 3170 0 | meeting 3170 3580 0 | penury 3580 4220 0',
  'lease 4220 4500 0 | is 4500 4640 0 | almost 4640 5080 0 | ready 5080 5590 0 | the 6480 6660 1',
  'database 6660 7430 1 | migration 7430 8270 1 | finished 8270 8740 1 | yesterday 8740 9360 1 | we 9430 9640 1',
  'decided 9640 10190 1 | to 10190 10370 1 | ship 10370 10700 1 | the 10700 10840 1 | release 10840 11310 1',
  'on 11310 11440 1 | friday 11440 12010 1 | great 13030 13330 2 | news 13330 13830 2 | the 13900 13990 2',
  'customer 13990 14540 2 | survey 14540 15090 2 | shows 15090 15430 2 | that 15430 15650 2',
  'people 15650 16030 2 | want 16030 16270 2 | the 16270 16350 2 | fastest 16350 16960 2 | arch 16960 17260 2',
  'page 17260 17680 2 | sarah 18500 18830 0 | please 19010 19300 0 | send 19300 19660 0 | the 19660 19730 0',
  'release 19730 20270 0 | notes 20270 20680 0 | to 20680 20820 0 | the 20820 20910 0 | team 20910 21190 0',
  'tomorrow 21190 21680 0 | john 22820 23180 1 | will 23180 23370 1 | fix 23370 23740 1 | the 23740 23840 1',
  'lincoln 23840 24170 1 | problem 24170 24620 1 | before 24620 25040 1 | first 25040 25400 1 | day 25400 25560 1',
  'we 26610 26810 2 | agree 26810 27110 2 | to 27110 27240 2 | review 27240 27560 2 | the 27560 27630 2',
  'budget 27630 27960 2 | next 27960 28370 2 | monday 28370 28850 2 | thank 28940 29390 2 | you 29390 29530 2',
  'all 29530 29920 2',
]
  .join(' | ')
  .split(' | ')
  .map((entry): SpeakerWord => {
    const [word, start, end, speaker] = entry.split(' ');
    return { word, startMs: Number(start), endMs: Number(end), speaker: `speaker_${speaker}` };
  });

describe('digest sentences from real pocketsphinx output', () => {
  const turns = buildTurns(STANDUP_WORDS);
  const pauses = turnPauses(STANDUP_WORDS, turns);
  const segments: DigestSegment[] = turns.map((t, i) => ({ ...t, speakerName: null, pausesMs: pauses[i] }));

  it('times every turn the way the pipeline stores it', () => {
    expect(segments.map((s) => s.pausesMs?.length)).toEqual(turns.map((t) => t.text.split(' ').length - 1));
    expect(segments[3].pausesMs?.[0]).toBe(180);
  });

  it('writes capitalized, punctuated decisions and action items quoted from their turns', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments });
    expect(digest.sections[1]).toMatchObject({ items: ['We decided to ship the release on Friday.'] });
    expect(digest.sections[2]).toMatchObject({
      items: [
        { text: 'Sarah please send the release notes to the team tomorrow.', owner: 'Sarah' },
        { text: 'John will fix the lincoln problem before first day.', owner: 'John' },
      ],
    });
    for (const t of digestTexts(digest)) {
      expect(t).toMatch(/^[A-Z].*[a-z][.?]$/);
      expect(segments.filter((s) => s.text.includes(words(t)))).toHaveLength(1);
    }
  });

  it('ends sentences at the closing thanks but not at the comma pause after a name', () => {
    const sentences = scoreSentences(segments, 'en');
    const of = (i: number) => sentences.filter((s) => s.segment === segments[i]).map((s) => s.text);
    expect(of(5)).toEqual(['We agree to review the budget next Monday.', 'Thank you all.']);
    expect(of(3)).toEqual(['Sarah please send the release notes to the team tomorrow.']);
    expect(of(1)).toEqual(['The database migration finished yesterday.', 'We decided to ship the release on Friday.']);
  });
});
