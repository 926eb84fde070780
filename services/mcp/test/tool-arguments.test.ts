import { SCOPES } from '@mm/contract';
import { argumentProblem } from '../src/domain/tool-arguments';
import { toolsFor } from '../src/domain/tools';

const tools = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false });
const tool = (name: string) => tools.find((t) => t.name === name)!;

describe('tool arguments against the advertised inputSchema', () => {
  it('accepts arguments that fit, as they are', () => {
    const args = { q: 'release', limit: 2 };
    expect(argumentProblem(tool('searchRecordings'), args)).toBeNull();
    expect(args).toEqual({ q: 'release', limit: 2 });
    expect(argumentProblem(tool('submitRecording'), { path: '/m.wav', useKeyterms: true })).toBeNull();
  });

  it('names an argument the tool does not take, and lists the ones it does', () => {
    expect(argumentProblem(tool('listReadyRecordings'), { series_id: 'x' })).toBe(
      'series_id is not an argument of listReadyRecordings; its arguments are limit, cursor, seriesId',
    );
    expect(argumentProblem(tool('whoami'), { verbose: true })).toBe(
      'verbose is not an argument of whoami, which takes none',
    );
  });

  it('coerces nothing: a number is not a string, "2" is not an integer, "true" is not a boolean', () => {
    expect(argumentProblem(tool('searchRecordings'), { q: 42 })).toBe('q must be string');
    expect(argumentProblem(tool('listReadyRecordings'), { limit: '2' })).toBe('limit must be integer');
    expect(argumentProblem(tool('submitRecording'), { path: '/m.wav', useKeyterms: 'true' })).toBe(
      'useKeyterms must be boolean',
    );
  });

  it('says a missing argument is required; bounds and patterns are left to the service, which names the argument', () => {
    expect(argumentProblem(tool('waitForRecording'), {})).toBe('id is required');
    expect(argumentProblem(tool('askRecording'), { id: 'r', question: '   ' })).toBeNull();
    const { idempotencyKey, ...routeArguments } = tool('askRecording').inputSchema.properties as Record<string, object>;
    expect(JSON.stringify(routeArguments)).not.toMatch(/pattern|maxLength/);
    // The key goes out as a header, whose refusal would not name the argument: its bounds are checked here.
    expect(idempotencyKey).toMatchObject({ minLength: 8, maxLength: 64 });
    expect(argumentProblem(tool('askRecording'), { id: 'r', question: 'q', idempotencyKey: 'short' })).toBe(
      'idempotencyKey must NOT have fewer than 8 characters',
    );
  });

  it("takes submit's useKeyterms as a boolean (a form part is text; a tool argument need not be)", () => {
    expect((tool('submitRecording').inputSchema.properties as Record<string, object>).useKeyterms).toEqual({
      type: 'boolean',
      description: expect.any(String),
    });
  });
});
