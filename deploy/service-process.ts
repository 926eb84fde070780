import { existsSync } from 'node:fs';
import path from 'node:path';

/** A command to spawn: what `spawn(command, args, options)` takes. */
export interface ServiceProcess {
  command: string;
  args: string[];
  options: { cwd: string; env: NodeJS.ProcessEnv };
}

/**
 * How `pnpm start` runs a service from its sources: `node --import tsx services/<name>/src/main.ts`
 * (tsx as a loader, not a wrapper, so signals reach the service itself) from the repository's root,
 * with `args` after it (`migrate`). tsx compiles a file by the tsconfig.json it finds in the directory
 * it runs in, and only the files that tsconfig includes. The app (services/web) is its own project
 * (preact's JSX), left out of the root's, so its tsconfig is named for it (TSX_TSCONFIG_PATH):
 * otherwise its pages compile as React's classic JSX and every one answers 500 ("React is not defined").
 */
export function serviceProcess(root: string, name: string, args: string[], env: NodeJS.ProcessEnv): ServiceProcess {
  const own = path.join(root, 'services', name, 'tsconfig.json');
  return {
    command: process.execPath,
    args: ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts'), ...args],
    options: { cwd: root, env: existsSync(own) ? { ...env, TSX_TSCONFIG_PATH: own } : env },
  };
}
