import { Client } from 'pg';

export interface ChaosCounts {
  seconds: number;
  faults: string[];
  submits: number;
  refused: number;
  namingSkips: number;
  retries: number;
  asks: number;
  askRepeats: number;
  accepted: number;
  ready: number;
  failed: number;
  captures: number;
  askCharges: number;
  events: number;
  /** Every broken promise (lost, stuck, doubled, out of order, wrong amount), one line each; empty when the run holds. */
  violations: string[];
}

interface Meeting {
  id: string;
  client: { accountId: string; token: string };
  /** The price the 202 answer stated. */
  price: number;
}

/** An Ask's Idempotency-Key and the quote read just before it was sent. */
export interface QuotedAsk {
  key: string;
  quote: number;
}

type LedgerRow = { accountId: string; kind: string; minutes: number; reference: string; holdReference: string | null };

/** What must hold after the faults, read from the run's database and through the gateway's feed. */
export class FaultChecks {
  constructor(
    private readonly databaseUrl: string,
    private readonly gatewayUrl: string,
  ) {}

  async run(
    meetings: Meeting[],
    quoted: QuotedAsk[],
    counts: Omit<ChaosCounts, 'accepted' | 'ready' | 'failed' | 'captures' | 'askCharges' | 'events' | 'violations'>,
  ): Promise<ChaosCounts> {
    const violations: string[] = [];
    const askKeys = quoted.map((q) => q.key);
    const db = new Client({ connectionString: this.databaseUrl });
    await db.connect();
    try {
      const ids = meetings.map((m) => m.id);
      await this.feedCaughtUp(db, ids);
      const rows = (
        await db.query(
          'select id, status, charged, auto_retry_pending, failed_step, minutes, event_seq from recordings.recording where id = any($1)',
          [ids],
        )
      ).rows;
      const ledger = (
        await db.query(
          'select account_id as "accountId", kind, minutes, reference, hold_reference as "holdReference" from account.ledger_entry',
        )
      ).rows as LedgerRow[];
      const meetingOf = (ref: string) => ref.replace(/^\w+:/, '').split(':')[0];
      const capturesOf = new Map<string, number[]>();
      for (const e of ledger)
        if (e.kind === 'capture')
          capturesOf.set(meetingOf(e.holdReference!), [
            ...(capturesOf.get(meetingOf(e.holdReference!)) ?? []),
            e.minutes,
          ]);
      const priceOf = new Map(meetings.map((m) => [m.id, m.price]));
      let ready = 0;
      let failed = 0;
      for (const r of rows) {
        const final = r.status === 'READY' || (r.status === 'FAILED' && !r.auto_retry_pending);
        if (!final) violations.push(`stuck: ${r.id} is ${r.status}${r.auto_retry_pending ? ' (retry pending)' : ''}`);
        if (r.status === 'READY') ready++;
        if (r.status === 'FAILED') failed++;
        const pastTranscript = r.status === 'READY' || (r.status === 'FAILED' && r.failed_step === 'generate');
        const captured = capturesOf.get(r.id) ?? [];
        const n = captured.length;
        if (pastTranscript && n !== 1) violations.push(`money: ${r.id} (${r.status}) has ${n} captures, not 1`);
        if (r.status === 'FAILED' && r.failed_step !== 'generate' && n !== 0)
          violations.push(`money: failed ${r.id} was captured ${n} times`);
        if (r.minutes !== priceOf.get(r.id))
          violations.push(`money: ${r.id} costs ${r.minutes} minutes, its 202 said ${priceOf.get(r.id)}`);
        for (const minutes of captured)
          if (minutes !== r.minutes)
            violations.push(`money: ${r.id} was charged ${minutes} minutes, its price is ${r.minutes}`);
      }
      if (rows.length !== ids.length)
        violations.push(`lost: ${ids.length - rows.length} accepted meetings are not in the database`);
      const closed = new Set(ledger.filter((e) => e.holdReference).map((e) => e.holdReference));
      for (const e of ledger)
        if (e.kind === 'hold' && !closed.has(e.reference))
          violations.push(`money: hold ${e.reference} is still open after the reconciler`);

      const asks = (
        await db.query(
          "select idempotency_key, count(*)::int as n, count(*) filter (where state = 'answered')::int as answered, array_agg(id) as ids from ask.ask where idempotency_key = any($1) group by 1",
          [askKeys],
        )
      ).rows as { idempotency_key: string; n: number; answered: number; ids: string[] }[];
      for (const a of asks) if (a.n !== 1) violations.push(`ask: key ${a.idempotency_key} made ${a.n} Asks`);
      const askCharges = ledger.filter((e) => e.kind === 'ask_charge');
      const answered = asks.reduce((s, a) => s + a.answered, 0);
      if (askCharges.length !== answered)
        violations.push(`ask: ${askCharges.length} charges for ${answered} answered Asks`);
      for (const a of asks) {
        const quote = quoted.find((q) => q.key === a.idempotency_key)!.quote;
        for (const c of askCharges.filter((e) => a.ids.includes(e.reference)))
          if (c.minutes !== quote)
            violations.push(`money: Ask ${c.reference} was charged ${c.minutes} minutes, its quote was ${quote}`);
      }
      await this.balanceChecks(meetings, ledger, violations);
      this.meetingOrderChecks(
        rows,
        (
          await db.query(
            'select recording_id, meeting_seq from events.event where recording_id = any($1) order by seq',
            [ids],
          )
        ).rows,
        violations,
      );

      const events = await this.feedChecks(meetings, violations);
      const captures = [...capturesOf.values()].reduce((s, c) => s + c.length, 0);
      return {
        ...counts,
        accepted: ids.length,
        ready,
        failed,
        captures,
        askCharges: askCharges.length,
        events,
        violations,
      };
    } finally {
      await db.end();
    }
  }

  /**
   * Delivery is eventual: after a broker and a database restart, the outbox relays and the feed's
   * consumer may still be retrying with backoff when every meeting is already final. Waits (up to
   * `boundMs`) until the feed holds as many events per meeting as recordings stamped; what is still
   * missing after that is a real loss, and the order checks below report it.
   */
  private async feedCaughtUp(db: Client, ids: string[], boundMs = 90_000): Promise<void> {
    const until = Date.now() + boundMs;
    while (Date.now() < until) {
      const { rows } = await db.query(
        `select count(*)::int as behind from recordings.recording r
          where r.id = any($1) and r.event_seq > (select count(*) from events.event e where e.recording_id = r.id)`,
        [ids],
      );
      if (rows[0].behind === 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Each account's whole feed: every event once, and per meeting `created` first, `ready` at most once and never before `created`. */
  /** Each account's balance, as its owner reads it, is its credits less its charges (meetings and Asks). */
  private async balanceChecks(meetings: Meeting[], ledger: LedgerRow[], violations: string[]): Promise<void> {
    const clients = new Map(meetings.map((m) => [m.client.accountId, m.client]));
    for (const c of clients.values()) {
      const sum = (kind: string) =>
        ledger.filter((e) => e.accountId === c.accountId && e.kind === kind).reduce((s, e) => s + e.minutes, 0);
      const expected = sum('credit') - sum('capture') - sum('ask_charge');
      const res = await fetch(`${this.gatewayUrl}/api/v1/account`, { headers: { Authorization: `Bearer ${c.token}` } });
      const balance = ((await res.json()) as { wallet?: { balanceMinutes?: number } }).wallet?.balanceMinutes;
      if (balance !== expected)
        violations.push(`money: account ${c.accountId} reads a balance of ${balance}, its ledger says ${expected}`);
    }
  }

  /**
   * Per meeting, the feed (by its order) holds every event the meeting emitted, once each, in the
   * order recordings stamped them: meetingSeq 1, 2, 3... with none missing.
   */
  private meetingOrderChecks(
    rows: { id: string; event_seq: number }[],
    stored: { recording_id: string; meeting_seq: number | null }[],
    violations: string[],
  ): void {
    for (const r of rows) {
      const seqs = stored.filter((e) => e.recording_id === r.id).map((e) => e.meeting_seq);
      const expected = Array.from({ length: r.event_seq }, (_, i) => i + 1);
      if (seqs.join(',') !== expected.join(','))
        violations.push(`feed order: ${r.id} stored its events as [${seqs.join(', ')}], not [${expected.join(', ')}]`);
    }
  }

  private async feedChecks(meetings: Meeting[], violations: string[]): Promise<number> {
    const clients = new Map(meetings.map((m) => [m.client.accountId, m.client]));
    let total = 0;
    for (const c of clients.values()) {
      const seen = new Set<string>();
      const perMeeting = new Map<string, string[]>();
      let after: string | undefined;
      for (let page = 0; page < 100; page++) {
        const url = `${this.gatewayUrl}/api/v1/events?limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const res = await fetch(url, { headers: { Authorization: `Bearer ${c.token}` } });
        const body = (await res.json()) as {
          events: { id: string; type: string; recordingId: string }[];
          nextCursor: string;
        };
        for (const e of body.events) {
          if (seen.has(e.id)) violations.push(`feed: event ${e.id} appears twice`);
          seen.add(e.id);
          perMeeting.set(e.recordingId, [...(perMeeting.get(e.recordingId) ?? []), e.type]);
        }
        total += body.events.length;
        after = body.nextCursor;
        if (body.events.length < 500) break;
      }
      for (const m of meetings.filter((x) => x.client.accountId === c.accountId)) {
        const types = perMeeting.get(m.id) ?? [];
        if (types.filter((t) => t === 'recording.created').length > 1)
          violations.push(`feed: ${m.id} announced created twice`);
        if (types[0] !== 'recording.created')
          violations.push(`feed order: ${m.id} reads ${types.join(', ') || 'nothing'}, not recording.created first`);
        if (types.filter((t) => t === 'recording.ready').length > 1)
          violations.push(`feed: ${m.id} announced ready twice`);
      }
    }
    return total;
  }
}
