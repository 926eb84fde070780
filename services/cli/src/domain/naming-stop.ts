/**
 * What a wait that stopped at NAMING says, the same in the command line, the MCP server and the
 * SDK: every wait stops there (unless told to skip), whatever the naming mode, because only a
 * person or a skip moves the meeting on before the deadline. Pure.
 */
export interface NamingStop {
  /** One line: the link, the deadline, and the two ways on. */
  hint: string;
  /** The commands that go on without names. */
  next: string[];
}

export function namingStop(
  id: string,
  naming: { url: string; deadline: string | null } | null | undefined,
): NamingStop {
  const next = [`mm skip-naming ${id}`, `mm wait ${id}`];
  const until = naming?.deadline
    ? `until ${naming.deadline} (then it goes on without names)`
    : 'with no end (it goes on only when named or skipped)';
  const url = naming?.url ?? '(no naming link)';
  return {
    next,
    hint:
      `waits for speaker names ${until}: open ${url} to name them, or go on without: ${next.join(' && ')} ` +
      '(--skip-naming never stops here)',
  };
}
