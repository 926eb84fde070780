import type { ListedRecording, RecordingRow } from '../db/schema';
import type { Digest } from '../db/digests.repository';
import { displayTitles } from '../domain/titles';
import { bundleMarkdown, sectionsMarkdown, transcriptMarkdown } from '../domain/markdown';
import { publicSegment, type AccessRole } from '@mm/contract';

/** Turns rows into the contract's resources. Knows the public URLs; no I/O. */
export class Views {
  constructor(private readonly urls: { apiBase: string; appUrl: string }) {}

  url(id: string) {
    return `${this.urls.appUrl}/recordings/${id}`;
  }
  statusUrl(id: string) {
    return `${this.urls.apiBase}/recordings/${id}/status`;
  }
  bundleUrl(id: string) {
    return `${this.urls.apiBase}/recordings/${id}/bundle`;
  }
  namingUrl(id: string) {
    return `${this.urls.appUrl}/recordings/${id}/naming`;
  }

  private titles(r: ListedRecording, digest: { title: string | null; language: string } | null, seriesOn: boolean) {
    return displayTitles({
      title: r.title,
      digestTitle: digest?.title ?? null,
      digestLanguage: digest?.language ?? null,
      recordedAt: r.recordedAt,
      series:
        seriesOn && r.seriesId && r.seriesName
          ? { name: r.seriesName, titleStyle: r.seriesTitleStyle, dateCalendar: r.seriesDateCalendar }
          : null,
    });
  }

  status(r: RecordingRow, digestTitle: string | null = null) {
    return {
      id: r.id,
      status: r.status,
      title: r.title ?? digestTitle,
      error: r.status === 'FAILED' && r.errorCode ? { code: r.errorCode, retryable: r.errorRetryable ?? false } : null,
      naming:
        r.status === 'NAMING'
          ? { url: this.namingUrl(r.id), deadline: r.namingDeadline ? r.namingDeadline.toISOString() : null }
          : null,
      bundleUrl: r.status === 'READY' ? this.bundleUrl(r.id) : null,
      url: this.url(r.id),
    };
  }

  submitResult(r: RecordingRow) {
    return {
      id: r.id,
      status: r.status,
      minutes: r.minutes,
      recordedAt: r.recordedAt.toISOString(),
      statusUrl: this.statusUrl(r.id),
      // A replay of a deleted meeting's key names it, but links to no bundle (its status answers 404).
      bundleUrl: r.status === 'READY' && !r.deletedAt ? this.bundleUrl(r.id) : null,
      url: this.url(r.id),
    };
  }

  listItem(r: ListedRecording, digest: { title: string | null; language: string } | null, seriesOn: boolean) {
    const t = this.titles(r, digest, seriesOn);
    return {
      id: r.id,
      title: t.title,
      kind: r.kind,
      createdAt: r.createdAt.toISOString(),
      recordedAt: r.recordedAt.toISOString(),
      durationSeconds: r.durationMs === null ? null : Math.round(r.durationMs / 1000),
      url: this.url(r.id),
      bundleUrl: this.bundleUrl(r.id),
      series: seriesOn && r.seriesId && r.seriesName ? { id: r.seriesId, name: r.seriesName } : null,
      displayTitle: t.displayTitle,
    };
  }

  bundle(
    r: RecordingRow,
    t: {
      language: string;
      speakers: { label: string; name: string | null }[];
      segments: { index: number; speaker: string; startMs: number; endMs: number; text: string }[];
      stats: Record<string, unknown>;
    },
    d: Pick<Digest, 'type' | 'language' | 'title' | 'sections'>,
    access: AccessRole,
    seriesOn: boolean,
  ) {
    const titles = this.titles(r, d, seriesOn);
    const durationSeconds = r.durationMs === null ? null : Math.round(r.durationMs / 1000);
    const series = seriesOn && r.seriesId && r.seriesName ? { id: r.seriesId, name: r.seriesName } : null;
    const digestMd = sectionsMarkdown(d.sections);
    const nameOf = new Map(t.speakers.map((s) => [s.label, s.name]));
    // The pauses stored beside each turn are the digest's, not the contract's.
    const segments = t.segments.map(publicSegment);
    const json = {
      recording: {
        id: r.id,
        title: titles.title,
        displayTitle: titles.displayTitle,
        subtitle: titles.subtitle,
        kind: r.kind,
        source: r.source,
        recordedAt: r.recordedAt.toISOString(),
        createdAt: r.createdAt.toISOString(),
        duration: durationSeconds,
        durationSeconds,
        url: this.url(r.id),
        series,
        access,
      },
      transcript: {
        language: t.language,
        speakers: t.speakers,
        segments,
        text: t.segments.map((s) => s.text).join('\n'),
        markdown: transcriptMarkdown(t.speakers, t.segments),
      },
      digest: { type: d.type, language: d.language, content: d.sections, sections: d.sections, markdown: digestMd },
      stats: {
        ...t.stats,
        // The pipeline's own `speakerName` (the name when the numbers were counted, before any
        // naming) is left out: `name` is the person's name now.
        speakers: ((t.stats.speakers as { speaker: string; speakerName?: unknown }[]) ?? []).map(
          ({ speakerName: _countedAs, ...s }) => ({ ...s, name: nameOf.get(s.speaker) ?? null }),
        ),
      },
    };
    // Built only for a bundle asked for as Markdown.
    const markdown = () =>
      bundleMarkdown({
        displayTitle: titles.displayTitle,
        subtitle: titles.subtitle,
        recordedAt: r.recordedAt,
        durationSeconds,
        seriesName: series?.name ?? null,
        speakers: t.speakers,
        digestMarkdownSections: digestMd,
        segments: t.segments,
      });
    return { json, markdown };
  }
}
