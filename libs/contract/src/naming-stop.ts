/**
 * The one sentence every client says when a wait stopped at NAMING (the contract's step 3: hand
 * `naming.url` to the person, or skip): the command line (`mm submit --wait`, `mm wait`) and the
 * MCP server's `waitForRecording` say it word for word alike; only `howToSkip` (a command, a tool
 * call) is theirs. Pure.
 */
export function namingStopSentence(
  naming: { url: string; deadline: string | null } | null | undefined,
  howToSkip: string,
): string {
  const until = naming?.deadline
    ? `until ${naming.deadline} (then it goes on without names)`
    : 'with no end (it goes on only when named or skipped)';
  const url = naming?.url ?? '(no naming link)';
  return (
    `The meeting waits for speaker names ${until}: open ${url} to name them, ` + `or go on without names: ${howToSkip}.`
  );
}
