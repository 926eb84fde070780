import type { Stack } from './stack';

/** Polls a meeting's status until `done` says so; returns the last status body. */
export async function waitForStatus(
  stack: Stack,
  token: string,
  id: string,
  done: (status: string) => boolean,
  timeoutMs = 120_000,
): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  let last: Record<string, any> = {};
  while (Date.now() < until) {
    const res = await stack.api.get(`/api/v1/recordings/${id}/status`).set('Authorization', `Bearer ${token}`);
    last = res.body;
    if (res.status === 200 && done(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`meeting ${id} did not get there in time; last status ${JSON.stringify(last)}`);
}

/** Content words of a script: lower-case words of 4+ letters that are not common function words. */
export function contentWords(text: string): Set<string> {
  const stop = new Set([
    'that',
    'this',
    'with',
    'have',
    'will',
    'from',
    'they',
    'were',
    'what',
    'about',
    'there',
    'their',
    'would',
    'should',
    'could',
    'into',
    'than',
    'then',
    'them',
    'been',
    'your',
    'just',
    'also',
    'very',
    'some',
    'when',
    'which',
    'these',
    'those',
    'over',
    'more',
    'make',
    'like',
  ]);
  return new Set((text.toLowerCase().match(/[a-z']+/g) ?? []).filter((w) => w.length >= 4 && !stop.has(w)));
}

/**
 * Polls the events feed until it holds an event of `type` for the meeting (`count` of them): the
 * feed is written after the status changes (outbox relay, then the events consumer), so READY can
 * come first.
 */
export async function waitForEvent(
  stack: Stack,
  token: string,
  recordingId: string,
  type: string,
  timeoutMs = 60_000,
  count = 1,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await stack.api.get('/api/v1/events?limit=500').set('Authorization', `Bearer ${token}`);
    const found = (res.body.events ?? []).filter(
      (e: { recordingId: string; type: string }) => e.recordingId === recordingId && e.type === type,
    ).length;
    if (found >= count) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${count > 1 ? `${count} ` : ''}${type} event${count > 1 ? 's' : ''} for ${recordingId} in time`);
}
