import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { buildOpenApi } from '@mm/contract';

type Doc = Record<string, any>;

/** Spectral's numeric severity of an error (0; 1 is a warning). */
const ERROR = 0;
/** As production serves it: PUBLIC_BASE_URL is https there (docs/operations.md). */
const PRODUCTION_ROOT = 'https://meetings.example.com/api/v1';

/** spectral:oas (recommended) and the OWASP API Security ruleset, no rule turned off. */
function linter(): Spectral {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [
      [oas, 'recommended'],
      [owasp, 'recommended'],
    ],
  } as Parameters<Spectral['setRuleset']>[0]);
  return spectral;
}

async function errorsOf(doc: Doc): Promise<string[]> {
  const results: ISpectralDiagnostic[] = await linter().run(new Document(JSON.stringify(doc, null, 2), Json));
  return results.filter((r) => r.severity === ERROR).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
}

describe('openapi.json under Spectral (spectral:oas and the OWASP API Security ruleset)', () => {
  const doc = (): Doc => buildOpenApi({ serverUrl: PRODUCTION_ROOT }) as Doc;

  it('has no errors: bounded strings, integers and arrays, rate-limit and CORS headers, a declared server', async () => {
    expect(await errorsOf(doc())).toEqual([]);
  });

  it('reports a string without maxLength, an integer without bounds and a response without rate-limit headers (the run can fail)', async () => {
    const broken = doc();
    const op = broken.paths['/series'].post;
    delete op.requestBody.content['application/json'].schema.properties.name.maxLength;
    const limit = broken.paths['/events'].get.parameters.find((p: Doc) => p.name === 'limit').schema;
    delete limit.maximum;
    delete op.responses['201'].headers.RateLimit;
    // Schemas and headers are shared between places of the document: count each rule once.
    const codes = [...new Set((await errorsOf(broken)).map((e) => e.split(' at ')[0]))];
    expect(codes.sort()).toEqual([
      'owasp:api4:2023-integer-limit',
      'owasp:api4:2023-rate-limit',
      'owasp:api4:2023-string-limit',
    ]);
  });
});
