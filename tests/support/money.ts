import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { connectBus, publish, streamName, type Bus } from '@mm/bus';
import { BUS, type StreamEntry } from '@mm/contract';
import type { Stack } from './stack';
import { toneWav } from './media';

/** One query against a stack's database (every service schema lives there). */
export async function query<T = Record<string, any>>(stack: Stack, text: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}

export interface LedgerEntry {
  kind: string;
  reference: string;
  holdReference: string | null;
  minutes: number;
}

/** An account's ledger, oldest first, without its credits. */
export async function ledger(stack: Stack, accountId: string): Promise<LedgerEntry[]> {
  const rows = await query(
    stack,
    "select kind, reference, hold_reference, minutes from account.ledger_entry where account_id = $1 and kind <> 'credit' order by id",
    [accountId],
  );
  return rows.map((r) => ({
    kind: r.kind,
    reference: r.reference,
    holdReference: r.hold_reference,
    minutes: Number(r.minutes),
  }));
}

/** Holds of an account that no capture or release has closed. */
export async function openHolds(stack: Stack, accountId: string): Promise<string[]> {
  const entries = await ledger(stack, accountId);
  const closed = new Set(entries.filter((e) => e.holdReference).map((e) => e.holdReference));
  return entries.filter((e) => e.kind === 'hold' && !closed.has(e.reference)).map((e) => e.reference);
}

/** A meeting's row in the recordings schema (job, hold, charge), as the service sees it. */
export async function meetingRow(
  stack: Stack,
  id: string,
): Promise<{ status: string; jobId: string; holdRef: string; charged: boolean; autoRetryPending: boolean }> {
  const [r] = await query(
    stack,
    'select status, job_id, hold_ref, charged, auto_retry_pending from recordings.recording where id = $1',
    [id],
  );
  return {
    status: r.status,
    jobId: r.job_id,
    holdRef: r.hold_ref,
    charged: r.charged,
    autoRetryPending: r.auto_retry_pending,
  };
}

/** The pipeline's result entries, by the short names tests use. */
export const RESULT_ENTRIES = {
  started: BUS.jobStarted,
  transcribed: BUS.jobTranscribed,
  generated: BUS.jobGenerated,
  failed: BUS.jobFailed,
} as const;

/**
 * Speaks as the pipeline on a stack's bus: publishes its result messages (as the
 * pipeline's outbox would) into the stack's namespace, so tests can drive any order of results.
 */
export class PipelineVoice {
  private constructor(
    private readonly bus: Bus,
    /** The operator's connection: only it may look at another service's consumer (issue 25, item 7). */
    private readonly operator: Bus,
  ) {}

  static async open(stack: Stack): Promise<PipelineVoice> {
    const [bus, operator] = await Promise.all([
      connectBus(stack.natsUrl, 'pipeline', stack.busNamespace),
      connectBus(stack.natsUrl, 'operator', stack.busNamespace),
    ]);
    return new PipelineVoice(bus, operator);
  }

  /** Publishes one result, checked against the table as the pipeline's own messages are. */
  async publish<P>(entry: StreamEntry<P>, payload: P): Promise<void> {
    await publish(this.bus, entry, payload, randomUUID());
  }

  /** Writes a job's artefact (transcript or digest) where the pipeline would, in the stack's audio store. */
  static writeArtefact(stack: Stack, key: string, doc: unknown): string {
    const file = path.join(stack.audioStore.replace(/^file:/, ''), key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
    return key;
  }

  /** Reports a transcript for the meeting's current job (one speaker, one decision). */
  async transcribe(stack: Stack, id: string): Promise<void> {
    const { jobId } = await meetingRow(stack, id);
    const segments = [
      { index: 0, speaker: 'A', startMs: 0, endMs: 2000, text: 'We decided to ship the release on Friday.' },
    ];
    const doc = { language: 'en', speakers: [{ label: 'A', name: null }], segments, stats: {} };
    await this.publish(BUS.jobTranscribed, {
      recordingId: id,
      jobId,
      transcriptKey: PipelineVoice.writeArtefact(stack, `work/${id}/transcript-${jobId}.json`, doc),
    });
  }

  /** Reports a digest for the meeting's current (generate) job. */
  async generate(stack: Stack, id: string): Promise<void> {
    const { jobId } = await meetingRow(stack, id);
    const doc = {
      type: 'MEETING',
      language: 'en',
      title: 'Release',
      sections: [{ kind: 'summary', title: 'Summary', text: 'Ship on Friday.' }],
      markdown: '# Release\n\nShip on Friday.\n',
    };
    await this.publish(BUS.jobGenerated, {
      recordingId: id,
      jobId,
      digestKey: PipelineVoice.writeArtefact(stack, `work/${id}/digest-${jobId}.json`, doc),
    });
  }

  /** Takes a meeting submitted with naming=skip to READY: transcript, then digest. */
  async finish(stack: Stack, id: string): Promise<void> {
    await this.transcribe(stack, id);
    await eventually(async () => (await meetingRow(stack, id)).status === 'GENERATING', 'the transcript');
    await this.generate(stack, id);
    await eventually(async () => (await meetingRow(stack, id)).status === 'READY', 'the digest');
  }

  /** Waits until the recordings service has handled every result published so far. */
  async settled(timeoutMs = 15_000): Promise<void> {
    const stream = streamName(this.bus.namespace, 'PIPELINE');
    await eventually(
      async () => {
        const info = await this.operator.jsm.consumers.info(stream, 'recordings-results');
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      'the pipeline results to be handled',
      timeoutMs,
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.bus.close(), this.operator.close()]);
  }
}

/** Polls until `check` answers true (or throws after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A submit through the gateway written by hand: the test decides when (and whether) its body ends. */
export function rawSubmit(stack: Stack, headers: Record<string, string | number>) {
  const u = new URL(stack.url);
  const req = http.request({ host: u.hostname, port: u.port, path: '/api/v1/recordings', method: 'POST', headers });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

/** The start of a multipart body: the 3-second tone as its audio part, then `more` (further part headers). */
export function multipartHead(boundary: string, more = ''): Buffer {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), readFileSync(toneWav(3)), Buffer.from(more)]);
}

/** Sends a multipart submit through the gateway by hand, holding back its last bytes until `finish()`. */
export function slowSubmit(stack: Stack, token: string, key: string) {
  const boundary = 'mmboundary';
  const body = multipartHead(boundary, `\r\n--${boundary}--\r\n`);
  const { req, answer } = rawSubmit(stack, {
    Authorization: `Bearer ${token}`,
    'Idempotency-Key': key,
    'Content-Type': `multipart/form-data; boundary=${boundary}`,
    'Content-Length': body.length,
  });
  const cut = body.length - 100;
  req.write(body.subarray(0, cut));
  return { answer, finish: () => req.end(body.subarray(cut)) };
}
