import { formatSessionDate } from './calendar';

export interface TitleInput {
  title: string | null;
  digestTitle: string | null;
  digestLanguage: string | null;
  recordedAt: Date;
  series: { name: string; titleStyle: string | null; dateCalendar: string | null } | null;
}

/**
 * The title as the app shows it. In a SESSION series: series name plus the meeting date in the
 * series' calendar (AUTO: Solar Hijri for a Persian digest, else Gregorian), and the meeting's
 * own title moves to the subtitle. Otherwise the meeting's title, else the digest's.
 */
export function displayTitles(i: TitleInput): { title: string | null; displayTitle: string; subtitle: string | null } {
  const own = i.title ?? i.digestTitle ?? null;
  if (i.series && (i.series.titleStyle ?? 'SESSION') === 'SESSION') {
    const cal =
      i.series.dateCalendar === 'JALALI' || i.series.dateCalendar === 'GREGORIAN'
        ? i.series.dateCalendar
        : i.digestLanguage === 'fa'
          ? 'JALALI'
          : 'GREGORIAN';
    return { title: own, displayTitle: `${i.series.name} ${formatSessionDate(i.recordedAt, cal)}`, subtitle: own };
  }
  return { title: own, displayTitle: own ?? 'Untitled meeting', subtitle: null };
}
