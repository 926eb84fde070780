/**
 * What to do with a hold that has stayed open long after any request that made it could still be
 * running. A hold's reference is the meeting id, or `<meeting id>:retry:<job>` /
 * `<meeting id>:restore:<id>` for a meeting held again. The meeting's `holdRef` names the hold it
 * will capture or release; any other open hold of it, or a hold whose meeting was never created
 * (the service stopped between the hold and the meeting's commit), is an orphan to release.
 */
export function staleHoldAction(
  reference: string,
  meeting: { holdRef: string; deletedAt: Date | null; charged: boolean } | null,
): 'release' | 'keep' {
  if (!meeting) return 'release';
  // Deleted before its transcript: the delete let the hold go; if that release was lost, do it now.
  if (meeting.deletedAt && !meeting.charged) return 'release';
  return meeting.holdRef === reference ? 'keep' : 'release';
}

/** The meeting a hold reference belongs to. */
export const meetingOfHold = (reference: string): string => reference.split(':')[0];
