/**
 * Which transcripts a series Ask carries, given their lengths as read, newest first: each whole
 * while it fits what the budget has left; one that does not fit is left out and a later, shorter
 * one may still fit. The Ask (askSeries) and its quote (askSeriesPrice) both decide by this.
 */
export function transcriptsThatFit(lengths: readonly number[], budget: number): boolean[] {
  let left = budget;
  return lengths.map((n) => {
    const fits = n <= left;
    if (fits) left -= n;
    return fits;
  });
}
