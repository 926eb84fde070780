import { namingStopSentence } from '@mm/contract';

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
  return {
    next,
    hint: namingStopSentence(naming, `${next.join(' && ')} (--skip-naming never stops here)`),
  };
}
