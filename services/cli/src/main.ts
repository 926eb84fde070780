import { Command, CommanderError } from 'commander';
import { loadConfig } from './config';
import { context, type Ctx } from './context';
import { registerAccountCommands } from './commands/account.commands';
import { registerMeetingCommands } from './commands/meetings.commands';
import { EXIT } from './domain/exit-codes';
import { reportError } from './output';

/**
 * `mm`: the Meeting Memory command line. Every command takes --json; errors carry the contract's
 * code and message, and the exit code says the kind of error (see domain/exit-codes.ts).
 */
export async function main(argv: string[]): Promise<number> {
  const cfg = loadConfig();
  let exitCode: number = EXIT.OK;
  const program = new Command('mm')
    .description('Meeting Memory from the command line (MM_URL and MM_TOKEN, or `mm login`)')
    .option('--json', 'answer JSON on stdout')
    .exitOverride()
    .showHelpAfterError();
  const run = async (_opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => {
    const json = Boolean(program.opts().json);
    try {
      exitCode = (await fn(context(cfg, json))) ?? EXIT.OK;
    } catch (err) {
      exitCode = reportError(err, json);
    }
  };
  registerAccountCommands(program, run);
  registerMeetingCommands(program, run);
  // --json is accepted after the command too (`mm ask ID Q --json`).
  for (const cmd of program.commands)
    cmd
      .option('--json', 'answer JSON on stdout')
      .hook('preAction', (c) => c.opts().json && program.setOptionValue('json', true));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    throw err;
  }
  return exitCode;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => process.exit(reportError(err, process.argv.includes('--json'))),
  );
}
