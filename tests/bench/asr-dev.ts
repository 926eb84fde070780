/**
 * Fast loop for the recognizer's search settings: the speech case's meetings (and other seeds of
 * the same real voices) are assembled once (16 kHz wavs cached under the OS temp dir), then only
 * `PocketsphinxAsr` runs on them, once per variant, and is scored for WER the way the bench scores
 * it. CPU is the decoder processes' own (user + system seconds of waited-for children, from
 * /proc/self/stat) per audio second, so it reads the same on a busy machine as on an idle one.
 *
 *   node --import tsx tests/bench/asr-dev.ts [--set bench,flite (default)|tune|held|all]
 *     [--variants '{"name": ["-maxhmmpf", "5000"], ...}'] [--parallel N]
 *
 * Without --variants: "ours" (DEFAULT_POCKETSPHINX.decoderArgs; since issue 31 none, pocketsphinx's
 * defaults, the bench's baseline) and "narrow" (-maxhmmpf 7000 -topn 4 -fwdflat no, used until
 * then). Sets as in lib/dev-meetings.ts: "bench" are the speech case's meetings, "asr-held" the
 * recordings no choice of settings has seen.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_POCKETSPHINX, PocketsphinxAsr, toWav16k } from '../../services/pipeline/src/engines';
import { meetingsOf, type DevMeeting } from './lib/dev-meetings';
import { wordErrorRate, type RefTurn } from './lib/speech-score';

interface Prepared {
  wav: string;
  durationMs: number;
  turns: RefTurn[];
}

const CACHE = path.join(os.tmpdir(), 'mm-asr-dev');

async function prepare(m: DevMeeting): Promise<Prepared> {
  const meta = path.join(CACHE, `${m.name}.json`);
  const hit = await fs.readFile(meta, 'utf8').then(
    (t) => JSON.parse(t) as Prepared,
    () => null,
  );
  if (hit) return hit;
  await fs.mkdir(CACHE, { recursive: true });
  const made = await m.make(CACHE);
  const wav = path.join(CACHE, `${m.name}-16k.wav`);
  await toWav16k(made.path, wav);
  const out: Prepared = { wav, durationMs: made.durationMs, turns: made.turns };
  await fs.writeFile(meta, JSON.stringify(out));
  return out;
}

/** CPU seconds (user + system) of this process's waited-for children: the decoders. */
async function childCpuSeconds(): Promise<number> {
  const stat = await fs.readFile('/proc/self/stat', 'utf8');
  // Fields after the command's closing parenthesis; cutime and cstime are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const set = arg('set') ?? 'bench,flite';
  const chosen = meetingsOf(set);
  const given = JSON.parse(arg('variants') ?? 'null') as Record<string, string[]> | null;
  const variants = given ?? {
    ours: DEFAULT_POCKETSPHINX.decoderArgs,
    narrow: ['-maxhmmpf', '7000', '-topn', '4', '-fwdflat', 'no'],
  };
  const parallel = Number(arg('parallel') ?? DEFAULT_POCKETSPHINX.parallel);
  const prepared: Prepared[] = [];
  for (const m of chosen) prepared.push(await prepare(m));
  for (const [name, decoderArgs] of Object.entries(variants)) {
    const asr = new PocketsphinxAsr({ decoderArgs, parallel });
    let errors = 0;
    let refWords = 0;
    let cpu = 0;
    let audio = 0;
    const cells: string[] = [];
    for (let i = 0; i < chosen.length; i++) {
      const c = prepared[i];
      const before = await childCpuSeconds();
      const { words } = await asr.transcribe({ wavPath: c.wav, keyterms: [] });
      const spent = (await childCpuSeconds()) - before;
      const w = wordErrorRate(c.turns, words);
      if (chosen[i].set !== 'flite') {
        errors += w.errors;
        refWords += w.refWords;
        cpu += spent;
        audio += c.durationMs / 1000;
      }
      const cpuPerSecond = (spent / (c.durationMs / 1000)).toFixed(2);
      cells.push(`${chosen[i].name} ${pct(w.wer)} (${w.errors}/${w.refWords}, cpu ${cpuPerSecond})`);
    }
    const cpuPerSecond = (cpu / audio).toFixed(3);
    const pooled = refWords
      ? `real pooled ${pct(errors / refWords)} (${errors}/${refWords}) cpu/s ${cpuPerSecond}`
      : '';
    console.log(`${name.padEnd(14)} ${JSON.stringify(decoderArgs)}  ${pooled}`);
    for (const cell of cells) console.log(`    ${cell}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
