/**
 * Fast loop for the speaker code: real-voice and flite meetings are assembled and recognized
 * once (words cached under the OS temp dir, keyed by meeting), then only the diarizer runs and
 * is scored. Not a bench case: the recognizer is not what changes here, and re-running
 * pocketsphinx for every threshold tried would cost minutes each time.
 *
 *   node --import tsx tests/bench/speakers-dev.ts [--set tune|held|bench|flite|all] [--opts JSON]
 *     [--sweep key=v1,v2,...] [--jitter MS [--monotone]]
 *
 * `--jitter 250` moves every word's start and end by up to ±250 ms (seeded, the same each run):
 * word times as coarse as a Whisper-class server's (issue 31).
 *
 * Sets as in lib/dev-meetings.ts (shared with asr-dev.ts), plus a flite monologue.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  PocketsphinxAsr,
  toWav16k,
  VoiceClusterDiarizer,
  DEFAULT_DIARIZE,
  type DiarizeOptions,
} from '../../services/pipeline/src/engines';
import type { TimedWord } from '../../services/pipeline/src/domain/turns';
import { longMeeting } from '../support/speak-meeting';
import { seededRandom } from '../support/seeded-random';
import { DEV_MEETINGS, fliteMeeting, meetingsOf, type DevMeeting } from './lib/dev-meetings';
import { diarizationError, turnStartErrors, type RefTurn } from './lib/speech-score';

interface Cached {
  wav: string;
  durationMs: number;
  turns: RefTurn[];
  words: TimedWord[];
}

const MEETINGS: DevMeeting[] = [
  ...DEV_MEETINGS,
  // One voice for a minute must stay one speaker (transcribe.int.test.ts asks the same).
  fliteMeeting(
    'flite-monologue',
    longMeeting(1).map(([, text]) => ['rms', text] as ['rms', string]),
  ),
];

const CACHE = path.join(os.tmpdir(), 'mm-speakers-dev');

async function load(m: DevMeeting): Promise<Cached> {
  const file = path.join(CACHE, `${m.name}.json`);
  const hit = await fs.readFile(file, 'utf8').then(
    (t) => JSON.parse(t) as Cached,
    () => null,
  );
  if (hit) return hit;
  await fs.mkdir(CACHE, { recursive: true });
  const made = await m.make(CACHE);
  const wav = path.join(CACHE, `${m.name}-16k.wav`);
  await toWav16k(made.path, wav);
  const asr = await new PocketsphinxAsr().transcribe({ wavPath: wav, keyterms: [] });
  const out: Cached = { wav, durationMs: made.durationMs, turns: made.turns, words: asr.words };
  await fs.writeFile(file, JSON.stringify(out));
  return out;
}

interface Score {
  name: string;
  speakers: string;
  der: number;
  confusion: number;
  starts: string;
  ok: boolean;
}

/** Every word's start and end moved by up to ±`ms` (seeded), kept in order and at least 10 ms long. */
function jittered(words: readonly TimedWord[], ms: number): TimedWord[] {
  if (ms <= 0) return [...words];
  const random = seededRandom(31);
  const moved = words.map((w) => {
    const startMs = Math.max(0, Math.round(w.startMs + (random() * 2 - 1) * ms));
    return { ...w, startMs, endMs: Math.max(startMs + 10, Math.round(w.endMs + (random() * 2 - 1) * ms)) };
  });
  moved.sort((a, b) => a.startMs - b.startMs);
  // --monotone: as Whisper gives them, each word ends before the next starts.
  if (process.argv.includes('--monotone'))
    for (let i = 1; i < moved.length; i++)
      moved[i - 1].endMs = Math.max(moved[i - 1].startMs + 10, Math.min(moved[i - 1].endMs, moved[i].startMs));
  return moved;
}

async function scoreOne(m: DevMeeting, c: Cached, opts: Partial<DiarizeOptions>): Promise<Score> {
  const words = jittered(c.words, Number(arg('jitter') ?? 0));
  const out = await new VoiceClusterDiarizer(opts).diarize({ wavPath: c.wav, words });
  const dia = diarizationError(c.durationMs, c.turns, out.turns);
  const starts = turnStartErrors(c.turns, out.turns, dia.mapping);
  const within = starts.filter((s) => s <= 1000).length;
  const ref = new Set(c.turns.map((t) => t.speaker)).size;
  if (arg('detail') === m.name) {
    console.log(`mapping ${JSON.stringify(dia.mapping)}`);
    c.turns.forEach((t, i) => {
      const hyp = out.turns
        .filter((h) => h.endMs > t.startMs && h.startMs < t.endMs)
        .map((h) => `${h.speaker.slice(8)}@${h.startMs}-${h.endMs}`);
      const err = Math.round(starts[i]);
      console.log(`  ${t.speaker.padEnd(8)} ${t.startMs}-${t.endMs} start err ${err}: ${hyp.join(' ')}`);
    });
  }
  const ok = ref === out.speakers.length && dia.der <= 0.15 && within === starts.length;
  const speakers = `${out.speakers.length}/${ref}`;
  return { name: m.name, speakers, der: dia.der, confusion: dia.confusion, starts: `${within}/${starts.length}`, ok };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const set = arg('set') ?? 'all';
  const chosen = meetingsOf(set, MEETINGS);
  const base = JSON.parse(arg('opts') ?? '{}') as Partial<DiarizeOptions>;
  const sweep = arg('sweep');
  const variants: Array<Partial<DiarizeOptions>> = [base];
  if (sweep) {
    const [key, values] = sweep.split('=');
    // A nested key (switches.cost) keeps its siblings: from the base options, else the defaults.
    type Opts = Record<string, unknown>;
    const set = (o: Opts, defaults: Opts, k: string, v: number): Opts => {
      const [head, ...rest] = k.split('.');
      const inner = (o[head] ?? defaults[head] ?? {}) as Opts;
      const nested = (defaults[head] ?? {}) as Opts;
      return { ...o, [head]: rest.length ? set(inner, nested, rest.join('.'), v) : v };
    };
    const defaults: Opts = { ...DEFAULT_DIARIZE };
    const swept = values.split(',').map((v) => set(base, defaults, key, Number(v)) as Partial<DiarizeOptions>);
    variants.splice(0, 1, ...swept);
  }
  const cached = [];
  for (const m of chosen) cached.push(await load(m));
  for (const v of variants) {
    const scores: Score[] = [];
    for (let i = 0; i < chosen.length; i++) scores.push(await scoreOne(chosen[i], cached[i], v));
    const meanDer = scores.reduce((a, s) => a + s.der, 0) / scores.length;
    const pass = scores.filter((s) => s.ok).length;
    const mean = `mean DER ${(meanDer * 100).toFixed(1)}%`;
    const exact = scores.filter((s) => s.speakers.split('/')[0] === s.speakers.split('/')[1]).length;
    const starts = scores.reduce((acc, s) => acc.map((a, i) => a + Number(s.starts.split('/')[i])), [0, 0]);
    const totals = `exact count ${exact}/${scores.length}  starts ${starts[0]}/${starts[1]}`;
    console.log(`\n${JSON.stringify(v)}  ${mean}  ${totals}  all targets ${pass}/${scores.length}`);
    for (const s of scores) {
      const der = `${(s.der * 100).toFixed(1)}% (conf ${(s.confusion * 100).toFixed(1)})`;
      const cols = [s.name.padEnd(22), s.speakers.padEnd(5), `DER ${der.padEnd(20)}`, `starts ${s.starts.padEnd(6)}`];
      console.log(`  ${cols.join(' ')} ${s.ok ? 'ok' : ''}`);
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
