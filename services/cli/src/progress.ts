import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { sizeText } from './domain/format';

/** The statuses a meeting passes, as steps of the status bar. */
const STEPS = ['QUEUED', 'TRANSCRIBING', 'NAMING', 'GENERATING', 'READY'];

export interface FileProgress {
  uploaded(sent: number, total: number): void;
  status(status: string, id: string): void;
  /** A line about this file (what to do at NAMING), above the bars on a terminal. */
  note(text: string): void;
}

export interface Progress {
  file(name: string): FileProgress;
  stop(): void;
}

/**
 * One bar per file on a terminal: the bytes sent while uploading, then the meeting's status until
 * READY or FAILED. Elsewhere (a pipe, a file, CI) plain lines: one per change, nothing redrawn.
 */
export function progress(tty: boolean, line: (s: string) => void): Progress {
  if (!tty) return plainProgress(line);
  const multi = new MultiBar(
    {
      format: '{file} [{bar}] {percentage}% | {phase}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      barsize: 30,
      fps: 10,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  return {
    file: (name) => {
      let bar: SingleBar | undefined;
      return {
        uploaded: (sent, total) => {
          bar ??= multi.create(total, 0, { file: name, phase: 'uploading' });
          bar.setTotal(total);
          bar.update(sent, { phase: `uploading ${sizeText(sent)}/${sizeText(total)}` });
        },
        status: (status, id) => {
          bar ??= multi.create(STEPS.length, 0, { file: name, phase: status });
          bar.setTotal(STEPS.length);
          const step = status === 'FAILED' ? STEPS.length : STEPS.indexOf(status) + 1;
          bar.update(step, { phase: statusText(name, status, id) });
        },
        note: (text) => multi.log(`${name}: ${text}\n`),
      };
    },
    stop: () => multi.stop(),
  };
}

function plainProgress(line: (s: string) => void): Progress {
  return {
    file: (name) => {
      let lastTenth = -1;
      let lastStatus = '';
      return {
        uploaded: (sent, total) => {
          // Rounded down: 100% only when every byte is sent, so it is printed once.
          const percent = Math.floor((sent / total) * 100);
          const tenth = Math.floor(percent / 10);
          if (tenth !== lastTenth) line(`${name}: uploaded ${percent}% (${sizeText(sent)}/${sizeText(total)})`);
          lastTenth = tenth;
        },
        status: (status, id) => {
          if (status !== lastStatus) line(`${name}: ${statusText(name, status, id)}`);
          lastStatus = status;
        },
        note: (text) => line(`${name}: ${text}`),
      };
    },
    stop: () => undefined,
  };
}

/** The status, and the meeting's id unless the line is already named by it (`mm wait ID`). */
function statusText(name: string, status: string, id: string): string {
  return name === id ? status : `${status} ${id}`;
}
