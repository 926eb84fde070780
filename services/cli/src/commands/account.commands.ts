import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { MeetingMemory } from '@mm/sdk';
import type { Command } from 'commander';
import { saveCredentials } from '../credentials';
import { EXIT } from '../domain/exit-codes';
import { CliError } from '../output';
import type { Ctx } from '../context';

type Run = (ctx: Ctx) => Promise<number | void>;
type Register = (cmd: Command, run: (opts: Record<string, unknown>, fn: Run) => Promise<void>) => void;

/** `mm login` and `mm whoami`. */
export const registerAccountCommands: Register = (program, run) => {
  program
    .command('login')
    .description(
      'check a token and keep the URL and token in a file only you can read (MM_CONFIG, default ~/.config/mm/credentials.json)',
    )
    .option('--url <url>', 'the service URL (default MM_URL)')
    .option('--token <token>', 'the API token (default MM_TOKEN, else read from standard input)')
    .action((opts) =>
      run(opts, async (ctx) => {
        const url = (opts.url as string | undefined) ?? ctx.cfg.url;
        if (!url) throw new CliError('USAGE', 'login needs --url or MM_URL', EXIT.USAGE);
        const token = (opts.token as string | undefined) ?? ctx.cfg.token ?? (await readToken());
        const who = await new MeetingMemory({ url, token }).whoami();
        await saveCredentials(ctx.cfg.credentialsPath, { url, token });
        ctx.out.result(
          { saved: ctx.cfg.credentialsPath, whoami: who },
          () =>
            `logged in as ${who.owner.displayName ?? who.owner.id} with token ${who.token.name}; saved in ${ctx.cfg.credentialsPath}`,
        );
      }),
    );

  program
    .command('whoami')
    .description('the token, its owner, scopes, wallet and limits')
    .action((opts) =>
      run(opts, async (ctx) => {
        const who = await (await ctx.client()).whoami();
        ctx.out.result(who, () =>
          [
            `owner ${who.owner.displayName ?? '(no name)'} ${who.owner.id}`,
            `token ${who.token.name} ${who.token.id}: ${who.token.scopes.join(' ')}`,
            `cap ${who.token.dailyMinuteCap ?? 'none'}, used ${who.token.usedMinutes24h} min in 24 h`,
            who.wallet ? `balance ${who.wallet.balanceMinutes} min` : 'balance: needs account:read',
            `limits ${who.limits.maxUploadMb} MB, ${who.limits.maxRecordingMinutes} min`,
          ].join('\n'),
        );
      }),
    );
};

/** Reads the token from standard input; on a terminal the typed characters are not shown. */
async function readToken(): Promise<string> {
  const tty = Boolean(process.stdin.isTTY);
  if (tty) process.stderr.write('API token: ');
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input: process.stdin, output: tty ? muted : process.stderr, terminal: tty });
  try {
    const token = (await rl.question('')).trim();
    if (tty) process.stderr.write('\n');
    if (!token) throw new CliError('USAGE', 'no token given', EXIT.USAGE);
    return token;
  } finally {
    rl.close();
  }
}
