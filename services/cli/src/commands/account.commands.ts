import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { saveCredentials } from '../credentials';
import { EXIT } from '../domain/exit-codes';
import { CliError } from '../output';
import { checkUrl, type Ctx } from '../context';

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
        const url = (opts.url as string | undefined) || ctx.cfg.url;
        if (!url) throw new CliError('USAGE', 'login needs --url or MM_URL', EXIT.USAGE);
        const urlFrom = opts.url ? '--url' : 'MM_URL';
        checkUrl(url, urlFrom);
        const token = (opts.token as string | undefined) || ctx.cfg.token || (await readToken());
        const who = await ctx.clientFor(url, token, urlFrom).whoami();
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

/**
 * Reads the token from standard input: its first line when piped (an empty or closed input is a
 * usage error, never a silent exit); typed on a terminal, the characters are not shown.
 */
async function readToken(): Promise<string> {
  const token = process.stdin.isTTY ? await askToken() : await firstLine(process.stdin);
  if (!token)
    throw new CliError(
      'USAGE',
      'no token given: pass --token, set MM_TOKEN, or write the token on standard input',
      EXIT.USAGE,
    );
  return token;
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0].trim();
}

async function askToken(): Promise<string> {
  process.stderr.write('API token: ');
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  // Ctrl-D closes the input without an answer: the question then never settles, or is rejected.
  const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    return (await Promise.race([rl.question('').catch(() => ''), closed])).trim();
  } finally {
    process.stderr.write('\n');
    rl.close();
  }
}
