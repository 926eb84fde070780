/**
 * The fairness rule the pipeline-throughput bench checks on measured start times: no account's
 * first meeting waits behind all of another account's. For every two accounts X and Y, X's first
 * transcription starts before Y's last one starts, unless X's first meeting was submitted only
 * after Y's last one had started (then it never waited behind it).
 */

export interface MeetingTimes {
  account: string;
  /** Milliseconds on one clock: the submit was accepted, the transcription started. */
  acceptedAt: number;
  startedAt: number;
}

export interface FairnessVerdict {
  pass: boolean;
  /** One line per broken pair ("C's first started 9.1 s after A's last started"). */
  violations: string[];
  /** Per account: first and last transcription start. */
  accounts: Array<{ account: string; firstStart: number; lastStart: number; firstAccepted: number }>;
}

export function checkFairStarts(meetings: readonly MeetingTimes[]): FairnessVerdict {
  const byAccount = new Map<string, MeetingTimes[]>();
  for (const m of meetings) byAccount.set(m.account, [...(byAccount.get(m.account) ?? []), m]);
  const accounts = [...byAccount].map(([account, ms]) => {
    const first = ms.reduce((a, m) => (m.startedAt < a.startedAt ? m : a));
    return {
      account,
      firstStart: first.startedAt,
      firstAccepted: first.acceptedAt,
      lastStart: Math.max(...ms.map((m) => m.startedAt)),
    };
  });
  const violations: string[] = [];
  for (const x of accounts) {
    for (const y of accounts) {
      if (x === y || x.firstStart < y.lastStart || x.firstAccepted >= y.lastStart) continue;
      violations.push(
        `${x.account}'s first started ${((x.firstStart - y.lastStart) / 1000).toFixed(1)} s after ${y.account}'s last started`,
      );
    }
  }
  return { pass: violations.length === 0, violations, accounts };
}
