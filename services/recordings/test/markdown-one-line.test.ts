import { bundleMarkdown } from '../src/domain/markdown';

/** The contract: title, subtitle, series name and each speaker name are each written on one line. */
describe('the Markdown bundle keeps names and titles on one line', () => {
  it('turns every line break into a space, NEL (U+0085) and U+2028 included', () => {
    const breaks = 'a\nb\r\nc\u000bd\u0085e\u2028f\u2029g';
    const md = bundleMarkdown({
      displayTitle: `Title ${breaks}`,
      subtitle: `Sub ${breaks}`,
      recordedAt: new Date('2026-11-28T10:00:00Z'),
      durationSeconds: 65,
      seriesName: `Series ${breaks}`,
      speakers: [{ label: 'speaker_0', name: `Sara ${breaks}` }],
      digestMarkdownSections: '## Summary\n\nShort.',
      segments: [{ speaker: 'speaker_0', startMs: 1000, text: 'Hello.' }],
    });
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Title a b c d e f g');
    expect(lines).toContain('_Sub a b c d e f g_');
    expect(lines).toContain('- Series: Series a b c d e f g');
    expect(lines).toContain('- Speakers: Sara a b c d e f g');
    expect(lines).toContain('**Sara a b c d e f g** [00:01]: Hello.');
    expect(md).not.toMatch(/[\u0085\u2028\u2029\u000b]/);
  });
});
