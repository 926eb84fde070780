import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { closedPort } from '../support/addresses';
import { REPO } from '../support/run-mm';

/**
 * The SDK as a developer outside this repository gets it: built (ESM, CommonJS, types), packed
 * with pnpm, installed with npm into an empty folder, and used from an ESM and a CommonJS script
 * against a running stack; a TypeScript file type-checks against the installed declarations.
 */
let stack: Stack;
let token: TestToken;
let consumer: string;

const SDK = path.join(REPO, 'libs', 'sdk');
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
/** A script that calls the stack, which runs in this process: it must not be waited for synchronously. */
const script = async (file: string, env: Record<string, string>) =>
  JSON.parse(
    (await promisify(execFile)('node', [file], { cwd: consumer, env: { ...process.env, ...env }, timeout: 60_000 }))
      .stdout,
  );

beforeAll(async () => {
  stack = await startStack();
  const account = await stack.admin.account({ balanceMinutes: 10 });
  token = await stack.admin.token(account.id, ['series:read', 'series:write', 'account:read']);
  const packs = mkdtempSync(path.join(tmpdir(), 'mm-sdk-pack-'));
  run('pnpm', ['build'], SDK);
  run('pnpm', ['pack', '--pack-destination', packs], SDK);
  const tarball = path.join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
  consumer = mkdtempSync(path.join(tmpdir(), 'mm-sdk-consumer-'));
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], consumer);
}, 180_000);
afterAll(async () => {
  await stack.stop();
});

/** The same calls from either module system: whoami, a series made and listed, a typed error, a network error. */
const calls = (unreachable: string) => `
  const mm = new MeetingMemory({ url: process.env.MM_URL, token: process.env.MM_TOKEN });
  const who = await mm.whoami();
  const made = await mm.createSeries({ name: process.env.SERIES });
  const listed = await mm.listSeries();
  const account = await mm.getAccount();
  let code;
  try { await mm.getSeries('no-such-series'); } catch (e) { code = e instanceof MmApiError ? e.code : String(e); }
  let network;
  try {
    await new MeetingMemory({ url: '${unreachable}', token: 'svc_x', retry: { maxAttempts: 1 } }).whoami();
  } catch (e) { network = e instanceof MmTransportError ? e.message : String(e); }
  console.log(JSON.stringify({
    scopes: who.token.scopes, made: made.series.name, listed: listed.items.map((i) => i.name),
    balance: account.wallet.balanceMinutes, code, network,
  }));
`;

describe('the SDK package outside the repository', () => {
  it('installs with npm from the packed tarball and works from an ESM and a CommonJS script', async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    writeFileSync(
      path.join(consumer, 'esm.mjs'),
      `import { MeetingMemory, MmApiError, MmTransportError } from '@mm/sdk';\n${calls(unreachable)}`,
    );
    writeFileSync(
      path.join(consumer, 'cjs.cjs'),
      `const { MeetingMemory, MmApiError, MmTransportError } = require('@mm/sdk');\n` +
        `(async () => {${calls(unreachable)}})().catch((e) => { console.error(e); process.exit(1); });`,
    );
    const env = { MM_URL: stack.url, MM_TOKEN: token.value };
    const esm = await script('esm.mjs', { ...env, SERIES: 'From ESM' });
    const cjs = await script('cjs.cjs', { ...env, SERIES: 'From CommonJS' });
    for (const [out, name] of [
      [esm, 'From ESM'],
      [cjs, 'From CommonJS'],
    ] as const) {
      expect(out).toMatchObject({ scopes: ['series:read', 'series:write', 'account:read'], made: name, balance: 10 });
      expect(out.listed).toContain(name);
      expect(out.code).toBe('NOT_FOUND');
      // A network failure names the request and the cause, not just "fetch failed".
      expect(out.network).toMatch(new RegExp(`^GET ${unreachable}/api/v1/whoami: .*ECONNREFUSED`));
    }
  }, 60_000);

  it('ships declarations a strict TypeScript project checks against, digest sections narrowing on kind', () => {
    writeFileSync(
      path.join(consumer, 'check.mts'),
      `import { MeetingMemory, type Bundle, type DigestSection } from '@mm/sdk';
export function actionItems(b: Bundle): string[] {
  return b.digest.content.flatMap((s: DigestSection) => (s.kind === 'action_item_list' ? s.items.map((i) => i.text) : []));
}
export const mm: MeetingMemory = new MeetingMemory({ url: 'http://localhost', token: 't' });
export const later: Promise<unknown> = mm.replaceAccountKeyterms(['Kubernetes']);
`,
    );
    const tsc = require.resolve('typescript/bin/tsc', { paths: [REPO] });
    // Node's own types, as the consumer would install them (@types/node).
    const nodeTypes = ['--typeRoots', path.join(REPO, 'node_modules', '@types'), '--types', 'node'];
    const out = run(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', ...nodeTypes, 'check.mts'],
      consumer,
    );
    expect(out).toBe('');
  }, 60_000);
});
