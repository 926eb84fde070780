import { Command, CommanderError } from 'commander';
import { version } from '../package.json';
import { loadConfig, type CliConfig } from './config';
import { context, type Ctx } from './context';
import { registerAccountCommands } from './commands/account.commands';
import { registerMeetingCommands } from './commands/meetings.commands';
import { registerSeriesCommands } from './commands/series.commands';
import { registerSubmitCommands } from './commands/submit.commands';
import { EXIT } from './domain/exit-codes';
import { CliError, reportError } from './output';

/**
 * `mm`: the Meeting Memory command line. Every command takes --json; errors carry the contract's
 * code and message, and the exit code says the kind of error (see domain/exit-codes.ts).
 */
export async function main(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  let cfg: CliConfig;
  try {
    cfg = loadConfig();
  } catch (err) {
    return reportError(err, json);
  }
  let exitCode: number = EXIT.OK;
  const program = new Command('mm')
    .description('Meeting Memory from the command line (MM_URL and MM_TOKEN, or `mm login`)')
    .version(version, '-V, --version', 'the version of mm')
    .option('--json', 'answer JSON on stdout')
    .exitOverride()
    .showHelpAfterError(!json);
  // With --json a usage error is reported below as JSON, like every other error, and the version
  // as {"version"}; help is still text (it is only held back until the version is ruled out).
  let said = '';
  if (json)
    program.configureOutput({ outputError: () => undefined, writeErr: () => undefined, writeOut: (s) => (said += s) });
  const run = async (_opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => {
    const ctx = context(cfg, json);
    try {
      exitCode = (await fn(ctx)) ?? EXIT.OK;
    } catch (err) {
      exitCode = reportError(err, json, ctx.apiRoot);
    }
  };
  registerAccountCommands(program, run);
  registerSubmitCommands(program, run);
  registerMeetingCommands(program, run);
  registerSeriesCommands(program, run);
  // --json is accepted after the command too (`mm ask ID Q --json`); wantsJson read it already.
  const withJson = (cmds: readonly Command[]): void => {
    for (const cmd of cmds) {
      if (cmd.commands.length) withJson(cmd.commands);
      else cmd.option('--json', 'answer JSON on stdout');
    }
  };
  withJson(program.commands);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.version' && json) process.stdout.write(`${JSON.stringify({ version })}\n`);
    else process.stdout.write(said);
    if (err.exitCode === 0) return EXIT.OK;
    return json ? reportError(usageError(err), true) : EXIT.USAGE;
  }
  return exitCode;
}

/** --json anywhere before a lone `--`: usage errors too are then answered in JSON. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function usageError(err: CommanderError): CliError {
  const message =
    err.code === 'commander.help' ? 'no command given: mm --help lists them' : err.message.replace(/^error: /, '');
  return new CliError('USAGE', message, EXIT.USAGE, { reason: err.code.replace(/^commander\./, '') });
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => process.exit(reportError(err, process.argv.includes('--json'))),
  );
}
