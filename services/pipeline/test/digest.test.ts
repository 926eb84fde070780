import { buildExtractiveDigest, DIGEST_TEMPLATES, type DigestKind, type DigestSegment } from '../src/domain/digest';
import { scoreSentences } from '../src/domain/digest-extract';
import { ExtractiveDigest } from '../src/engines/digest';

// What pocketsphinx writes for the standup script: lower case, no punctuation.
const STANDUP: DigestSegment[] = [
  'good morning everyone let us start the weekly planning meeting the new release is almost ready',
  'the database migration finished yesterday we decided to ship the release on friday',
  'great news the customer survey shows that people want a faster search page',
  'sara please send the release notes to the team tomorrow',
  'john will fix the login problem before thursday',
  'we agreed to review the budget next monday thank you all',
].map((text, index) => ({
  index,
  speaker: `speaker_${index % 3}`,
  speakerName: null,
  startMs: index * 5000,
  endMs: index * 5000 + 4500,
  text,
}));

const transcript = STANDUP.map((s) => s.text).join(' ');

/** The spoken words of a written sentence: lower case, no punctuation. */
const words = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, '')
    .trim();

describe('buildExtractiveDigest', () => {
  it.each(Object.entries(DIGEST_TEMPLATES))(
    'gives a %s digest its template sections in reading order',
    (kind, sections) => {
      const digest = buildExtractiveDigest({ kind: kind as DigestKind, language: 'en', segments: STANDUP });
      expect(digest.type).toBe(kind);
      expect(digest.sections.map((s) => s.kind)).toEqual(sections);
    },
  );

  it('lists the decisions from the transcript, capitalized and punctuated', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: STANDUP });
    const decisions = digest.sections.find((s) => s.kind === 'decision_list');
    expect(decisions).toMatchObject({
      title: 'Decisions',
      items: ['We decided to ship the release on Friday.', 'We agreed to review the budget next Monday.'],
    });
  });

  it('lists action items with the owner named in them', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: STANDUP });
    const actions = digest.sections.find((s) => s.kind === 'action_item_list');
    expect(actions?.kind === 'action_item_list' && actions.items).toEqual([
      { text: 'Sara please send the release notes to the team tomorrow.', owner: 'Sara' },
      { text: 'John will fix the login problem before Thursday.', owner: 'John' },
    ]);
  });

  it('gives "I will" to the speaker who said it, by the name given to that speaker', () => {
    const segments = [
      {
        index: 0,
        speaker: 'speaker_1',
        speakerName: 'Reza Karimi',
        startMs: 0,
        endMs: 3000,
        text: 'i will send the invoice to the client',
      },
    ];
    const digest = buildExtractiveDigest({ kind: 'VOICE_MEMO', language: 'en', segments });
    expect(digest.sections[1]).toMatchObject({
      kind: 'action_item_list',
      items: [{ text: 'I will send the invoice to the client.', owner: 'Reza Karimi' }],
    });
  });

  it('builds the summary only from sentences of the transcript', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: STANDUP });
    const summary = digest.sections[0];
    expect(summary.kind).toBe('summary');
    const sentences = summary.kind === 'summary' ? summary.text.split(/(?<=[.?]) /) : [];
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    for (const s of sentences) {
      expect(s).toMatch(/^[A-Z].*[.?]$/);
      expect(transcript).toContain(words(s));
    }
  });

  it('suggests a title from the topics and renders Markdown with every section', () => {
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: STANDUP });
    expect(digest.title).toMatch(/release/i);
    expect(digest.markdown).toContain(`# ${digest.title}\n`);
    expect(digest.markdown).toContain('## Summary');
    expect(digest.markdown).toContain('## Decisions\n\n- We decided to ship the release on Friday.');
    expect(digest.markdown).toContain('- [ ] John will fix the login problem before Thursday. — **John**');
  });

  it('collects questions for a lecture even without question marks', () => {
    const segments = [
      'today we look at how neural networks learn from data',
      'the key idea is gradient descent on a loss function',
      'why does the learning rate matter so much',
      'a learning rate that is too large makes training diverge',
    ].map((text, index) => ({
      index,
      speaker: 'speaker_0',
      speakerName: null,
      startMs: index * 4000,
      endMs: index * 4000 + 3500,
      text,
    }));
    const digest = buildExtractiveDigest({ kind: 'LECTURE', language: 'en', segments });
    expect(digest.sections.map((s) => s.kind)).toEqual(['summary', 'key_point_list', 'question_list']);
    expect(digest.sections[2]).toMatchObject({ items: ['Why does the learning rate matter so much?'] });
  });

  it('titles sections in Persian and finds Persian decision and action cues', () => {
    const segments = [
      'سلام به همه امروز درباره بودجه سال آینده صحبت می‌کنیم',
      'بعد از بحث زیاد تصمیم گرفتیم بودجه تبلیغات را کم کنیم',
      'سارا باید گزارش بودجه را تا شنبه بفرستد',
      'آیا کسی درباره هزینه سرورها سوالی دارد',
    ].map((text, index) => ({
      index,
      speaker: `speaker_${index % 2}`,
      speakerName: null,
      startMs: index * 4000,
      endMs: index * 4000 + 3500,
      text,
    }));
    const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'fa', segments });
    expect(digest.sections.map((s) => s.title)).toEqual(['خلاصه', 'تصمیم‌ها', 'کارهای پیگیری']);
    expect(digest.sections[1]).toMatchObject({ items: ['تصمیم گرفتیم بودجه تبلیغات را کم کنیم.'] });
    expect(digest.sections[2]).toMatchObject({
      items: [{ text: 'سارا باید گزارش بودجه را تا شنبه بفرستد.', owner: 'سارا' }],
    });
    expect(digest.markdown).toContain('## خلاصه');
  });

  it('writes an empty digest for a transcript with nothing in it, saying so in Markdown', () => {
    const digest = buildExtractiveDigest({ kind: 'CALL', language: 'en', segments: [] });
    expect(digest.sections).toEqual([
      { kind: 'summary', title: 'Summary', text: '' },
      { kind: 'decision_list', title: 'Decisions', items: [] },
      { kind: 'action_item_list', title: 'Action items', items: [] },
    ]);
    expect(digest.title).toBe('Call');
    expect(digest.markdown).toContain('None noted.');
  });

  it('prefers sentences about what the owner remembers', () => {
    const segments = [
      'the kubernetes cluster needs more memory before the launch',
      'the marketing team wants new photos for the website',
      'lunch will be late today because of the delivery',
    ].map((text, index) => ({
      index,
      speaker: 'speaker_0',
      speakerName: null,
      startMs: index * 4000,
      endMs: index * 4000 + 3500,
      text,
    }));
    const score = (memory: string[]): number => scoreSentences(segments, 'en', memory)[0].score;
    expect(score(['TERMS: Kubernetes cluster'])).toBeGreaterThan(score([]));
  });
});

describe('ExtractiveDigest', () => {
  it('generates the same digest through the engine interface', async () => {
    const digest = await new ExtractiveDigest().generate({ kind: 'MEETING', language: 'en', segments: STANDUP });
    expect(digest).toEqual(buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments: STANDUP }));
  });
});
