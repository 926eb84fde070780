import { askCharsRead, transcriptAsText } from '@mm/contract';

/** The quotes (askMeetingPrice/askSeriesPrice) and the Asks price by the same count: it must not drift. */
describe('askCharsRead', () => {
  const transcript = {
    speakers: [
      { label: 'speaker_0', name: 'Sara' },
      { label: 'speaker_1', name: null },
    ],
    segments: [
      { index: 0, speaker: 'speaker_0', startMs: 0, endMs: 900, text: 'We ship on Friday.' },
      { index: 1, speaker: 'speaker_1', startMs: 1000, endMs: 2000, text: 'Then QA starts Monday.' },
    ],
  };

  it('prices a meeting by its transcript as read (names given, else labels), not its digest', () => {
    const n = askCharsRead('meeting', [{ digestText: 'Summary: a long digest', transcript }]);
    expect(n).toBe(transcriptAsText(transcript).length);
    expect(n).toBe('Sara: We ship on Friday.\nspeaker_1: Then QA starts Monday.'.length);
  });

  it('prices a series by every digest and only the transcripts its budget carried', () => {
    const n = askCharsRead('series', [
      { digestText: 'abc', transcript },
      { digestText: 'defgh', transcript: null },
    ]);
    expect(n).toBe(3 + 5 + transcriptAsText(transcript).length);
    expect(askCharsRead('series', [])).toBe(0);
  });
});
