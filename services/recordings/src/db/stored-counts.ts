/**
 * The counts of some meetings' documents, by meeting: each row's stored count, or, for a row written
 * before the counts were kept, its count computed now and stored. `store` must write only where the
 * count is still null (`... is null`): a write that counted the document meanwhile wins, and the
 * count computed here is still the one answered.
 */
export async function storedCounts<R extends { recordingId: string }>(
  rows: readonly R[],
  stored: (row: R) => number | null,
  count: (row: R) => number,
  store: (recordingId: string, n: number) => Promise<unknown>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const kept = stored(row);
    if (kept !== null) {
      counts.set(row.recordingId, kept);
      continue;
    }
    const n = count(row);
    await store(row.recordingId, n);
    counts.set(row.recordingId, n);
  }
  return counts;
}
