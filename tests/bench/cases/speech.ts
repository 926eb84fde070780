/**
 * Speech quality on real recorded voices: meetings of 3 and 4 real speakers assembled at run
 * time (lib/real-voices: short turns, natural gaps, some overlap, noise) go through the offline
 * engines exactly as the pipeline runs them (transcribeMeeting: pocketsphinx, then the voice
 * clustering diarizer). Scored against the assembled timeline (lib/speech-score): word error rate
 * on turns with references next to pocketsphinx's own default settings on the same audio, the
 * speaker count, diarization error rate, turn-start error and real-time factor. The flite
 * meetings of the other tests are scored the same way, so nothing regresses on them.
 *
 * No services: the engines run in this process and the processes it starts.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildExtractiveDigest } from '../../../services/pipeline/src/domain/digest';
import { turnPauses } from '../../../services/pipeline/src/domain/spoken-sentences';
import {
  PocketsphinxAsr,
  toWav16k,
  transcribeMeeting,
  VoiceClusterDiarizer,
  type MeetingTranscript,
} from '../../../services/pipeline/src/engines';
import { longMeeting, speakMeeting, STANDUP_SCRIPT } from '../../support/speak-meeting';
import { loadAverage } from '../lib/proc';
import { assembleMeeting, normalizeWords, realUtterances, type RealSpeaker } from '../lib/real-voices';
import { diarizationError, turnStartErrors, wordErrorRate, type RefTurn } from '../lib/speech-score';
import type { BenchCase, CaseContext, CaseReport, TargetCheck } from '../lib/types';

const RTF_TARGET = 0.5;
const DER_TARGET = 0.15;
const TURN_START_TARGET_MS = 1000;
/** WER may exceed pocketsphinx's defaults by at most this (absolute). */
const WER_MARGIN = 0.01;

interface MeetingSpec {
  name: string;
  real: boolean;
  make(scratch: string): Promise<{ path: string; durationMs: number; turns: RefTurn[] }>;
}

const REAL = (name: string, speakers: RealSpeaker[], seed: number): MeetingSpec => ({
  name,
  real: true,
  async make(scratch) {
    const all = await realUtterances();
    const m = await assembleMeeting(
      all,
      { speakers, seed, maxTurnMs: 7000, maxPerSpeaker: 6, overlapShare: 0.15, noiseDb: -50 },
      path.join(scratch, `${name}.wav`),
    );
    return { path: m.path, durationMs: m.durationMs, turns: m.turns };
  },
});

const FLITE = (name: string, script: Parameters<typeof speakMeeting>[0]): MeetingSpec => ({
  name,
  real: false,
  async make() {
    const m = await speakMeeting(script);
    return {
      path: m.path,
      durationMs: m.durationMs,
      turns: m.turns.map((t) => ({
        speaker: t.voice,
        reference: normalizeWords(t.text),
        startMs: t.startMs,
        endMs: t.endMs,
      })),
    };
  },
});

const MEETINGS: MeetingSpec[] = [
  REAL('real-3', ['reader', 'allison', 'cards'], 3),
  REAL('real-4', ['reader', 'allison', 'cards', 'dhd'], 4),
  FLITE('flite-standup', STANDUP_SCRIPT),
  FLITE('flite-1min', longMeeting(1)),
];

interface MeetingResult {
  name: string;
  real: boolean;
  audioSeconds: number;
  turns: number;
  refSpeakers: number;
  speakers: number;
  wer: number;
  baselineWer: number;
  refWords: number;
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  turnStartMaxMs: number;
  turnStartsWithin: number;
  rtf: number;
  baselineRtf: number;
  /** The extractive digest's summary of what was recognized, to read how it comes out. */
  summary: string;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

async function score(spec: MeetingSpec, ctx: CaseContext): Promise<MeetingResult> {
  const m = await spec.make(ctx.scratchDir);
  const audioSeconds = m.durationMs / 1000;
  const t0 = performance.now();
  const out = await transcribeMeeting(
    { asr: new PocketsphinxAsr(), diarizer: new VoiceClusterDiarizer() },
    { audioPath: m.path, keyterms: [] },
    ctx.scratchDir,
  );
  const rtf = (performance.now() - t0) / 1000 / audioSeconds;
  ctx.checkAborted();
  const wav16 = path.join(ctx.scratchDir, `${spec.name}-16k.wav`);
  await toWav16k(m.path, wav16);
  const b0 = performance.now();
  const baseline = await new PocketsphinxAsr({ decoderArgs: [] }).transcribe({ wavPath: wav16, keyterms: [] });
  const baselineRtf = (performance.now() - b0) / 1000 / audioSeconds;
  await fs.rm(wav16, { force: true });
  const wer = wordErrorRate(m.turns, out.words);
  const dia = diarizationError(m.durationMs, m.turns, out.segments);
  const starts = turnStartErrors(m.turns, out.segments, dia.mapping);
  const result: MeetingResult = {
    name: spec.name,
    real: spec.real,
    audioSeconds,
    turns: m.turns.length,
    refSpeakers: new Set(m.turns.map((t) => t.speaker)).size,
    speakers: out.speakers.length,
    wer: wer.wer,
    baselineWer: wordErrorRate(m.turns, baseline.words).wer,
    refWords: wer.refWords,
    der: dia.der,
    missed: dia.missed,
    falseAlarm: dia.falseAlarm,
    confusion: dia.confusion,
    turnStartMaxMs: Math.max(...starts),
    turnStartsWithin: starts.filter((s) => s <= TURN_START_TARGET_MS).length,
    rtf,
    baselineRtf,
    summary: summaryOf(out),
  };
  ctx.log(`${spec.name}: ${JSON.stringify(result)}`);
  return result;
}

/** The digest's summary as the pipeline writes it (the turns carry the recognizer's pauses). */
function summaryOf(t: MeetingTranscript): string {
  const pauses = turnPauses(t.words, t.segments);
  const segments = t.segments.map((s, index) => ({ ...s, index, speakerName: null, pausesMs: pauses[index] }));
  const digest = buildExtractiveDigest({ kind: 'MEETING', language: 'en', segments });
  return digest.sections[0].kind === 'summary' ? digest.sections[0].text : '';
}

function targetsOf(r: MeetingResult): TargetCheck[] {
  const checks: TargetCheck[] = [
    {
      label: `${r.name}: exact speaker count`,
      pass: r.speakers === r.refSpeakers,
      measured: `${r.speakers} found of ${r.refSpeakers}`,
    },
    { label: `${r.name}: DER <= ${pct(DER_TARGET)}`, pass: r.der <= DER_TARGET, measured: `DER ${pct(r.der)}` },
    {
      label: `${r.name}: every turn start within ${TURN_START_TARGET_MS} ms`,
      pass: r.turnStartsWithin === r.turns,
      measured: `${r.turnStartsWithin}/${r.turns}, worst ${Number.isFinite(r.turnStartMaxMs) ? `${Math.round(r.turnStartMaxMs)} ms` : 'none found'}`,
    },
    { label: `${r.name}: RTF < ${RTF_TARGET}`, pass: r.rtf < RTF_TARGET, measured: `RTF ${r.rtf.toFixed(3)}` },
  ];
  if (r.real) {
    checks.unshift({
      label: `${r.name}: WER <= pocketsphinx defaults + ${WER_MARGIN * 100} point`,
      pass: r.wer <= r.baselineWer + WER_MARGIN,
      measured: `WER ${pct(r.wer)} vs defaults ${pct(r.baselineWer)} (${r.refWords} reference words)`,
    });
  }
  return checks;
}

export const speechCase: BenchCase = {
  name: 'speech',
  description:
    'speech quality on real recorded voices (3- and 4-speaker meetings) and on the flite meetings: WER, speakers, DER, turn starts, RTF',
  implemented: true,
  services: [],
  async run(ctx: CaseContext): Promise<CaseReport> {
    const loadBefore = loadAverage();
    const results: MeetingResult[] = [];
    for (const spec of MEETINGS) {
      ctx.checkAborted();
      ctx.log(`${spec.name}: assembling and transcribing (load average ${loadAverage().toFixed(2)})`);
      results.push(await score(spec, ctx));
    }
    const loadAfter = loadAverage();
    const rows = results.map((r) => [
      r.name,
      r.audioSeconds.toFixed(1),
      String(r.turns),
      `${r.speakers}/${r.refSpeakers}`,
      pct(r.wer),
      pct(r.baselineWer),
      pct(r.der),
      `${pct(r.missed)} / ${pct(r.falseAlarm)} / ${pct(r.confusion)}`,
      `${r.turnStartsWithin}/${r.turns}`,
      Number.isFinite(r.turnStartMaxMs) ? String(Math.round(r.turnStartMaxMs)) : '∞',
      r.rtf.toFixed(3),
      r.baselineRtf.toFixed(3),
    ]);
    return {
      tables: [
        {
          title: 'speech — offline engines (pocketsphinx + voice clustering), scored against the assembled timeline',
          table: {
            headers: [
              'meeting',
              'audio s',
              'turns',
              'speakers',
              'WER',
              'WER defaults',
              'DER',
              'missed / FA / confusion',
              'starts ≤ 1 s',
              'worst start ms',
              'RTF',
              'RTF defaults',
            ],
            rows,
          },
        },
      ],
      lines: [
        'WER: each recognized word goes to the reference turn it overlaps most; turns without a reference are not scored. "defaults": pocketsphinx with no search options, same chunks, same audio.',
        'DER: 10 ms frames, 250 ms collar around every reference turn boundary, one-to-one speaker mapping with the most shared time; overlapped speech counts each speaker.',
        'Turn start: for each reference turn, the nearest start of a transcript segment of the mapped speaker. RTF: transcribeMeeting wall time / audio length (decode + ASR + diarization).',
        ...results.map((r) => `${r.name} digest summary: ${r.summary || '(empty)'}`),
        `load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after${loadBefore > 1 ? ' — the machine was shared and loaded; RTFs are pessimistic' : ''}`,
      ],
      targets: results.flatMap(targetsOf),
      summary: results
        .map(
          (r) =>
            `${r.name}: WER ${pct(r.wer)} (defaults ${pct(r.baselineWer)}), ${r.speakers}/${r.refSpeakers} speakers, DER ${pct(r.der)}, RTF ${r.rtf.toFixed(3)}`,
        )
        .join('; '),
      data: { results, loadBefore, loadAfter },
    };
  },
};
