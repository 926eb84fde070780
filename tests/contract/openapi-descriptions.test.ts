import { buildOpenApi } from '@mm/contract';
import { operationsOf, textSites, undocumentedConditionalFields, type Json } from './openapi-walk';

const doc = buildOpenApi({ serverUrl: 'http://127.0.0.1:8080/api/v1' }) as Json;
const sites = textSites(doc);

const PERSIAN_LETTER = /[\u0600-\u06FF]/;
/** A Persian word: two or more Arabic-script letters in a row. */
const PERSIAN_WORD = /[\u0621-\u064A\u067E\u0686\u0698\u06A9\u06AF\u06CC]{2,}/;
/** Arabic YEH and KAF, where Persian writes ی and ک. */
const ARABIC_ONLY_FORMS = /[\u064A\u0643]/;

/** Problems of one Persian text, or an empty list. */
function persianProblems(fa: unknown, en: unknown): string[] {
  if (typeof fa !== 'string' || fa.trim() === '') return ['missing'];
  const problems: string[] = [];
  if (!PERSIAN_LETTER.test(fa)) problems.push('no Persian letters');
  if (/^[\x00-\x7F]*$/.test(fa)) problems.push('ASCII only');
  if (!PERSIAN_WORD.test(fa)) problems.push('no Persian word');
  if (ARABIC_ONLY_FORMS.test(fa)) problems.push('Arabic ي or ك instead of Persian ی or ک');
  if (fa === en) problems.push('same as English');
  return problems;
}

describe('texts of openapi.json', () => {
  it('walks a meaningful number of places (fields, parameters, responses, operations)', () => {
    expect(sites.length).toBeGreaterThan(500);
  });

  it('gives every field, parameter, header, body, response and operation an English description', () => {
    const missing = sites
      .filter((s) => typeof s.node.description !== 'string' || (s.node.description as string).trim().length < 3)
      .map((s) => s.where);
    expect(missing).toEqual([]);
  });

  it('gives every one of them a real Persian x-svc-description-fa', () => {
    const bad = sites
      .map((s) => ({ where: s.where, problems: persianProblems(s.node['x-svc-description-fa'], s.node.description) }))
      .filter((s) => s.problems.length > 0);
    expect(bad).toEqual([]);
  });

  it('gives every operation a summary, a description and their Persian forms', () => {
    for (const { method, path, op } of operationsOf(doc)) {
      const at = `${method} ${path}`;
      expect([at, typeof op.summary, typeof op.description]).toEqual([at, 'string', 'string']);
      expect([at, 'summary', persianProblems(op['x-svc-summary-fa'], op.summary)]).toEqual([at, 'summary', []]);
      expect([at, 'description', persianProblems(op['x-svc-description-fa'], op.description)]).toEqual([
        at,
        'description',
        [],
      ]);
    }
  });

  it('gives every tag English and Persian descriptions', () => {
    for (const tag of doc.tags as Json[]) {
      expect([tag.name, persianProblems(tag['x-svc-description-fa'], tag.description)]).toEqual([tag.name, []]);
    }
  });

  it('hides no field inside a conditional fragment', () => {
    const schemas: [string, unknown][] = Object.entries((doc.components as Json).schemas as Json);
    for (const { method, path, op } of operationsOf(doc)) {
      const body = op.requestBody as Json | undefined;
      for (const media of Object.values((body?.content ?? {}) as Json))
        schemas.push([`${method} ${path} body`, (media as Json).schema]);
      for (const [status, r] of Object.entries(op.responses as Json)) {
        for (const media of Object.values(((r as Json).content ?? {}) as Json))
          schemas.push([`${method} ${path} ${status}`, (media as Json).schema]);
      }
    }
    expect(schemas.flatMap(([where, s]) => undocumentedConditionalFields(s, where))).toEqual([]);
  });

  it('catches a field that only a conditional fragment names (the check can fail)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      allOf: [{ if: { required: ['a'] }, then: { required: ['hidden'] } }],
    };
    expect(undocumentedConditionalFields(schema, 'x')).toEqual(['x/allOf0/then: hidden']);
  });

  it('catches a missing Persian text (the check can fail)', () => {
    expect(persianProblems(undefined, 'x')).toEqual(['missing']);
    expect(persianProblems('Meeting id.', 'Meeting id.')).toEqual(
      expect.arrayContaining(['no Persian letters', 'ASCII only']),
    );
    expect(persianProblems('شناسه‌ي جلسه', 'Meeting id.')).toEqual(['Arabic ي or ك instead of Persian ی or ک']);
    expect(persianProblems('شناسهٔ جلسه.', 'Meeting id.')).toEqual([]);
  });
});
