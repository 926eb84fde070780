/**
 * How a series' Ask names the meetings it cites: by their display titles, with the time a meeting
 * was recorded added where two meetings share a title (a series whose titles are its name and a
 * date, two sessions on one day, a title used twice), so no two citations read alike.
 */
export function citedMeetingNames(
  meetings: readonly { id: string; displayTitle: string; recordedAt: string }[],
  date: (iso: string) => string,
): Map<string, string> {
  const uses = new Map<string, number>();
  for (const m of meetings) uses.set(m.displayTitle, (uses.get(m.displayTitle) ?? 0) + 1);
  return new Map(
    meetings.map((m) => [
      m.id,
      (uses.get(m.displayTitle) ?? 0) > 1 ? `${m.displayTitle} · ${date(m.recordedAt)}` : m.displayTitle,
    ]),
  );
}
