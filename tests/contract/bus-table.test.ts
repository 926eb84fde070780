import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUS, BUS_ENTRIES, BUS_SERVICES, BUS_STREAMS, ERROR_CODES, type BusEntry, type JsonSchema } from '@mm/contract';

const ROOT = path.resolve(__dirname, '../..');

/** Every TypeScript file under `dir`, relative to the repo root. */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) out.push(path.relative(ROOT, full));
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

/** The file's code without its comments (a comment may name a subject; code may not). */
function code(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The string and template literals of a piece of code. */
function literals(text: string): string[] {
  return [...text.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
}

const ALL_FILES = ['services', 'libs', 'tests', 'deploy'].flatMap(sources);
const OUTSIDE_CONTRACT = ALL_FILES.filter((f) => !f.startsWith('libs/contract/src/'));

/**
 * What a subject written by hand looks like: a whole subject of the table, or the start of one
 * with at least two tokens (`account.wallet.` + a verb, `pipeline.job.${step}`).
 */
const SUBJECT_PREFIXES = [
  ...new Set(
    [...BUS_ENTRIES.map((e) => e.subject), ...Object.values(BUS_STREAMS).flatMap((s) => s.subjects)].flatMap(
      (subject) => {
        const tokens = subject.replace(/\.>$/, '').split('.');
        return tokens.slice(1).map((_, i) => `${tokens.slice(0, i + 2).join('.')}${i + 2 < tokens.length ? '.' : ''}`);
      },
    ),
  ),
];

describe('the bus table is the only place subjects and payloads are written', () => {
  it('finds no NATS subject written outside libs/contract (services, libs, tests, deploy)', () => {
    const found = OUTSIDE_CONTRACT.flatMap((f) =>
      literals(code(f))
        .filter((l) =>
          SUBJECT_PREFIXES.some(
            (p) => l === p || l.startsWith(p.endsWith('.') ? p : `${p}.`) || (p.endsWith('.') && l.startsWith(p)),
          ),
        )
        .map((l) => `${f}: '${l}'`),
    );
    expect(found).toEqual([]);
  });

  it('catches a subject written by hand (the check itself can fail)', () => {
    const hits = (text: string) =>
      literals(text).filter((l) =>
        SUBJECT_PREFIXES.some((p) => l === p || l.startsWith(p.endsWith('.') ? p : `${p}.`)),
      );
    expect(hits("request(nc, 'account.wallet.release', {})")).toEqual(['account.wallet.release']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is source code, the template is its subject
    expect(hits('enqueue(trx, id, `pipeline.job.${step}`, job)')).toEqual(['pipeline.job.${step}']);
    expect(hits("db.selectFrom('series').where('series.id', '=', id)")).toEqual([]);
  });

  it('leaves the NATS client to libs/bus: no service requests, subscribes or publishes by itself', () => {
    const direct = ALL_FILES.filter((f) => f.startsWith('services/') && f.includes('/src/')).flatMap((f) =>
      [...code(f).matchAll(/\b(nc|js|bus\.nc|bus\.js)\.(request|subscribe|publish)\(/g)].map((m) => `${f}: ${m[0]}`),
    );
    expect(direct).toEqual([]);
  });

  it('declares no message type in a service bus folder (payload types come from the table)', () => {
    const declared = ALL_FILES.filter((f) => /^services\/[^/]+\/src\/bus\//.test(f)).flatMap((f) =>
      // A declaration (`type X =`, `type X<`, `interface X`), not a `type X,` inside an import list.
      [...code(f).matchAll(/^\s*(?:export\s+)?(?:interface\s+(\w+)|type\s+(\w+)\s*[=<])/gm)].map(
        (m) => `${f}: ${m[1] ?? m[2]}`,
      ),
    );
    expect(declared).toEqual([]);
  });
});

describe('the bus table', () => {
  const entries = Object.entries(BUS) as [string, BusEntry<unknown, unknown>][];

  it('names each entry by its key and gives every subject one entry', () => {
    for (const [key, e] of entries) expect(e.name).toBe(key);
    expect(new Set(BUS_ENTRIES.map((e) => e.subject)).size).toBe(BUS_ENTRIES.length);
  });

  it('gives requests a reply and no stream, facts and jobs a stream that takes their subject', () => {
    for (const e of BUS_ENTRIES) {
      const v = e.versions[e.version];
      expect(v).toBeDefined();
      if (e.kind === 'request') {
        expect([e.name, Boolean(v.reply), e.stream]).toEqual([e.name, true, undefined]);
      } else {
        expect([e.name, v.reply, e.principal]).toEqual([e.name, undefined, undefined]);
        const stream = BUS_STREAMS[e.stream!];
        const covered = stream.subjects.some((s) =>
          s.endsWith('.>') ? e.subject.startsWith(s.slice(0, -1)) : s === e.subject,
        );
        expect([e.name, covered]).toEqual([e.name, true]);
        if (e.subject.endsWith('.>')) expect([e.name, typeof e.subjectOf]).toEqual([e.name, 'function']);
      }
    }
  });

  it('names known services, never the owner among the users, and only contract codes as refusals', () => {
    for (const e of BUS_ENTRIES) {
      expect(BUS_SERVICES).toContain(e.owner);
      for (const u of e.users) expect(BUS_SERVICES).toContain(u);
      if (e.kind !== 'job') expect([e.name, e.users.includes(e.owner)]).toEqual([e.name, false]);
      for (const c of e.refusals) expect(Object.keys(ERROR_CODES)).toContain(c);
    }
  });

  it('describes every schema and every property of every version', () => {
    const missing: string[] = [];
    const walk = (s: JsonSchema, where: string, described: boolean) => {
      if (described && typeof s.description !== 'string') missing.push(where);
      for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>))
        walk(p, `${where}.${k}`, true);
      if (s.items && typeof s.items === 'object') walk(s.items as JsonSchema, `${where}[]`, true);
      if (s.additionalProperties && typeof s.additionalProperties === 'object')
        walk(s.additionalProperties as JsonSchema, `${where}{}`, true);
      for (const alt of (s.anyOf ?? []) as JsonSchema[]) if (alt.type !== 'null') walk(alt, `${where}|`, false);
    };
    for (const e of BUS_ENTRIES) {
      for (const [version, v] of Object.entries(e.versions)) {
        walk(v.payload, `${e.name}@${version}.payload`, true);
        if (v.reply) walk(v.reply, `${e.name}@${version}.reply`, true);
      }
    }
    expect(missing).toEqual([]);
  });

  /**
   * The code shows who talks to whom: each entry is used by its owner and by each of its users,
   * and by no other service. NATS permissions are generated from the same table.
   */
  it('matches the code: each entry is touched by its owner and its users, and by nobody else', () => {
    const serviceFiles = (svc: string) => ALL_FILES.filter((f) => f.startsWith(`services/${svc}/src/`));
    const uses = (svc: string, name: string) =>
      serviceFiles(svc).some((f) => new RegExp(`\\bBUS\\.${name}\\b`).test(code(f)));
    const wrong: string[] = [];
    for (const e of BUS_ENTRIES) {
      if (!uses(e.owner, e.name)) wrong.push(`${e.name}: its owner ${e.owner} does not use it`);
      for (const u of e.users) if (!uses(u, e.name)) wrong.push(`${e.name}: its user ${u} does not use it`);
      for (const svc of BUS_SERVICES)
        if (svc !== e.owner && !e.users.includes(svc) && uses(svc, e.name))
          wrong.push(`${e.name}: ${svc} uses it but the table does not say so`);
    }
    expect(wrong).toEqual([]);
  });
});
