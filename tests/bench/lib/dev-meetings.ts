/**
 * The meetings of the fast dev loops (speakers-dev.ts, asr-dev.ts): the speech case's two real
 * meetings ("bench"), other seeds and speaker mixes of the same Debian voices to choose settings
 * on ("tune") and to check them once ("held"), and the flite meetings. Thresholds are chosen on
 * tune (and bench), then checked on held.
 */
import * as path from 'node:path';
import { longMeeting, speakMeeting, STANDUP_SCRIPT } from '../../support/speak-meeting';
import { assembleMeeting, normalizeWords, realUtterances, type RealSpeaker } from './real-voices';
import type { RefTurn } from './speech-score';

export interface DevMeeting {
  name: string;
  set: 'bench' | 'tune' | 'held' | 'flite';
  make(dir: string): Promise<{ path: string; durationMs: number; turns: RefTurn[] }>;
}

const ALL4: RealSpeaker[] = ['reader', 'allison', 'cards', 'dhd'];

const real = (set: DevMeeting['set'], speakers: RealSpeaker[], seed: number): DevMeeting => ({
  name: `real-${speakers.length}-${speakers.map((s) => s[0]).join('')}-s${seed}`,
  set,
  async make(dir) {
    const opts = { speakers, seed, maxTurnMs: 7000, maxPerSpeaker: 6, overlapShare: 0.15, noiseDb: -50 };
    const m = await assembleMeeting(await realUtterances(), opts, path.join(dir, `${seed}-${speakers.join('-')}.wav`));
    return { path: m.path, durationMs: m.durationMs, turns: m.turns };
  },
});

export const fliteMeeting = (name: string, script: Parameters<typeof speakMeeting>[0]): DevMeeting => ({
  name,
  set: 'flite',
  async make() {
    const m = await speakMeeting(script);
    const turns = m.turns.map((t) => ({
      speaker: t.voice,
      reference: normalizeWords(t.text),
      startMs: t.startMs,
      endMs: t.endMs,
    }));
    return { path: m.path, durationMs: m.durationMs, turns };
  },
});

export const DEV_MEETINGS: DevMeeting[] = [
  real('bench', ['reader', 'allison', 'cards'], 3),
  real('bench', ALL4, 4),
  real('tune', ['reader', 'cards'], 11),
  real('tune', ['reader', 'allison', 'cards'], 12),
  real('tune', ['reader', 'cards', 'dhd'], 13),
  real('tune', ALL4, 14),
  real('tune', ['allison', 'cards', 'dhd'], 15),
  real('tune', ALL4, 16),
  real('held', ['reader', 'cards'], 21),
  real('held', ['reader', 'allison', 'cards'], 22),
  real('held', ['reader', 'allison', 'dhd'], 23),
  real('held', ALL4, 24),
  real('held', ['reader', 'cards', 'dhd'], 25),
  real('held', ALL4, 26),
  fliteMeeting('flite-standup', STANDUP_SCRIPT),
  fliteMeeting('flite-1min', longMeeting(1)),
];

/** The meetings of `set`: a comma-separated list of sets, or `all`. */
export function meetingsOf(set: string, meetings: DevMeeting[] = DEV_MEETINGS): DevMeeting[] {
  return meetings.filter((m) => set === 'all' || set.split(',').includes(m.set));
}
