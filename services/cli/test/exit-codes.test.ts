import { ERROR_CODES } from '@mm/contract';
import { EXIT, exitCodeOf, mostRelevantExit } from '../src/domain/exit-codes';
import { answerText, mmss } from '../src/domain/format';

describe('exit codes by kind of error', () => {
  it('gives every contract code a documented kind, never the unexpected one', () => {
    for (const [code, status] of Object.entries(ERROR_CODES))
      expect([code, exitCodeOf(code, status)]).not.toEqual([code, EXIT.UNEXPECTED]);
  });

  it('sorts codes that share a status by their code', () => {
    expect(exitCodeOf('TOKEN_INVALID', 401)).toBe(EXIT.AUTH);
    expect(exitCodeOf('DEVELOPER_MODE_OFF', 403)).toBe(EXIT.AUTH);
    expect(exitCodeOf('TOKEN_SCOPE', 403)).toBe(EXIT.FORBIDDEN);
    expect(exitCodeOf('RATE_LIMITED', 429)).toBe(EXIT.RATE_LIMITED);
    expect(exitCodeOf('TOKEN_DAILY_CAP', 429)).toBe(EXIT.LIMIT);
    expect(exitCodeOf('PRICE_ABOVE_MAX', 409)).toBe(EXIT.LIMIT);
    expect(exitCodeOf('NOT_READY', 409)).toBe(EXIT.STATE);
    expect(exitCodeOf('IDEMPOTENCY_KEY_IN_USE', 409)).toBe(EXIT.INVALID);
    expect(exitCodeOf('UPLOAD_IN_PROGRESS', 503)).toBe(EXIT.UNAVAILABLE);
  });

  it('answers, for several files, the failure that stops the whole run before one that concerns a file', () => {
    expect(mostRelevantExit([EXIT.OK, EXIT.OK])).toBe(EXIT.OK);
    expect(mostRelevantExit([EXIT.OK, EXIT.INVALID])).toBe(EXIT.INVALID);
    expect(mostRelevantExit([EXIT.INVALID, EXIT.LIMIT, EXIT.OK])).toBe(EXIT.LIMIT);
    expect(mostRelevantExit([EXIT.MEETING_FAILED, EXIT.AUTH])).toBe(EXIT.AUTH);
    expect(mostRelevantExit([EXIT.NAMING, EXIT.MEETING_FAILED])).toBe(EXIT.MEETING_FAILED);
  });
});

describe('answer text', () => {
  it('writes citations as mm:ss and speaker, with the given name where known', () => {
    expect(mmss(0)).toBe('00:00');
    expect(mmss(83_999)).toBe('01:23');
    expect(mmss(3_723_000)).toBe('62:03');
    const text = answerText({
      answer: 'Friday [1][2].',
      citations: [
        { startMs: 4200, speaker: 'speaker_1', speakerName: 'Sara', quote: 'We ship on Friday.' },
        { startMs: 65_000, speaker: null },
      ],
      minutes: 2,
      refused: false,
    });
    expect(text.split('\n')).toEqual([
      'Friday [1][2].',
      '',
      '[1] 00:04 Sara (speaker_1): "We ship on Friday."',
      '[2] 01:05 unknown speaker',
      'charged 2 min',
    ]);
  });
});
