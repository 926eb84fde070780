import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { speakMeeting, STANDUP_SCRIPT } from '../../../tests/support/speak-meeting';
import { probe, readPcm16k, toWav16k, withCanonicalWav } from '../src/engines/audio';

const run = promisify(execFile);

describe('probe', () => {
  it('measures a spoken m4a', async () => {
    const meeting = await speakMeeting(STANDUP_SCRIPT, { format: 'm4a', sampleRate: 44100 });
    const info = await probe(meeting.path);
    expect(info).toMatchObject({ codec: 'aac', hasAudio: true, hasVideo: false, sampleRate: 44100, channels: 1 });
    expect(info.formatName).toContain('m4a');
    expect(Math.abs((info.durationMs ?? 0) - meeting.durationMs)).toBeLessThan(200);
  }, 60000);

  it('tells video from audio and decodes the sound track of a video', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-audio-test-'));
    try {
      const meeting = await speakMeeting(STANDUP_SCRIPT);
      const video = path.join(dir, 'clip.mp4');
      await run('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'color=c=blue:s=160x120:d=3',
        '-i',
        meeting.path,
        '-t',
        '3',
        '-c:v',
        'libx264',
        '-c:a',
        'aac',
        video,
      ]);
      expect(await probe(video)).toMatchObject({ hasAudio: true, hasVideo: true });
      const wav = path.join(dir, 'clip.wav');
      await toWav16k(video, wav);
      expect(await probe(wav)).toMatchObject({ codec: 'pcm_s16le', sampleRate: 16000, channels: 1, hasVideo: false });
      const samples = await readPcm16k(wav);
      expect(Math.abs(samples.length - 3 * 16000)).toBeLessThan(1600);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60000);

  it('is AUDIO_CORRUPT for a file that is not media at all', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-audio-test-'));
    try {
      const file = path.join(dir, 'notes.wav');
      await fs.writeFile(file, 'these are meeting notes, not audio');
      await expect(probe(file)).rejects.toMatchObject({ code: 'AUDIO_CORRUPT' });
      await expect(toWav16k(file, path.join(dir, 'out.wav'))).rejects.toMatchObject({ code: 'AUDIO_CORRUPT' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('reading a decoded meeting in pieces', () => {
  it('reads any stretch of the wav ffmpeg wrote, equal to the whole decode', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-audio-test-'));
    try {
      const meeting = await speakMeeting(STANDUP_SCRIPT, { format: 'm4a', sampleRate: 44100 });
      const wav = path.join(dir, 'meeting.wav');
      await toWav16k(meeting.path, wav);
      const whole = await readPcm16k(wav);
      const seen = await withCanonicalWav(wav, dir, async (pcm) => {
        expect(pcm.sampleCount).toBe(whole.length);
        expect(await pcm.read(16000, 16000 + 4800)).toEqual(whole.slice(16000, 16000 + 4800));
        expect(await pcm.read(whole.length - 10, whole.length + 500)).toEqual(whole.slice(whole.length - 10));
        return pcm.sampleCount;
      });
      expect(seen).toBe(whole.length);
      // An input that is not the canonical wav is decoded to a copy, which is removed afterwards.
      const fromM4a = await withCanonicalWav(meeting.path, dir, async (pcm) => pcm.sampleCount);
      expect(Math.abs(fromM4a - whole.length)).toBeLessThan(1600);
      expect(await fs.readdir(dir)).toEqual(['meeting.wav']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60000);
});
