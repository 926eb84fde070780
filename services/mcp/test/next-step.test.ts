import { namingStopSentence, SCOPES } from '@mm/contract';
import { nextStep } from '../src/domain/next-step';
import { toolsFor } from '../src/domain/tools';

const every = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false });
const readOnly = toolsFor(['recordings:read'], { transport: 'stdio', audioByUrl: false });
const naming = { url: 'https://app/n/1', deadline: null };

describe('the next step after a wait', () => {
  it('at NAMING offers the naming URL, or skipRecordingNaming (the server sends its only action), then the wait', () => {
    const next = nextStep({ id: 'r1', status: 'NAMING', naming, error: null }, every)!;
    // The command line's sentence, word for word; then the tool calls that go on.
    expect(next.message).toBe(
      `${namingStopSentence(naming, 'call skipRecordingNaming with the id, then waitForRecording')} ` +
        'Hand naming.url to the person who can name the speakers, then call waitForRecording again.',
    );
    expect(next.message).toMatch(/^The meeting waits for speaker names with no end .* Hand naming\.url/);
    expect(next.calls).toEqual([
      { name: 'skipRecordingNaming', arguments: { id: 'r1' } },
      { name: 'waitForRecording', arguments: { id: 'r1' } },
    ]);
    const until = nextStep(
      { id: 'r1', status: 'NAMING', naming: { ...naming, deadline: '2026-01-01T00:00:00Z' } },
      every,
    );
    expect(until!.message).toMatch(/until 2026-01-01T00:00:00Z \(then it goes on without names\)/);
  });

  it('offers only the tools the token has, naming the scope the others need', () => {
    const next = nextStep(
      { id: 'r1', status: 'FAILED', error: { code: 'TRANSCRIBE_FAILED', retryable: true } },
      readOnly,
    )!;
    expect(next).toEqual({
      message: expect.stringMatching(
        /retryRecording \(needs the scope recordings:write, which this token does not have\)/,
      ),
      calls: [],
    });
  });

  it('says nothing more at READY or at a FAILED that cannot be retried', () => {
    expect(nextStep({ id: 'r1', status: 'READY' }, every)).toBeNull();
    expect(
      nextStep({ id: 'r1', status: 'FAILED', error: { code: 'AUDIO_CORRUPT', retryable: false } }, every),
    ).toBeNull();
  });
});
