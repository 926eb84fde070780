import { contractBreaks, openapiBreaks, type BusSnapshot } from '../../src/compat';

type Doc = Record<string, any>;

/** A small OpenAPI document using path-level parameters and component `$ref`s. */
function doc(): Doc {
  return {
    openapi: '3.1.0',
    paths: {
      '/notes/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'format', in: 'query', required: false, schema: { enum: ['json', 'markdown'] } }],
          responses: {
            '200': {
              description: 'The note.',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Note' } },
                'text/markdown': { schema: { type: 'string' } },
              },
            },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
        patch: {
          operationId: 'updateNote',
          requestBody: {
            required: false,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NotePatch' } } },
          },
          responses: { '200': { description: 'Saved.' } },
        },
      },
    },
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 40 } } },
      responses: {
        NotFound: { description: 'No such note.', content: { 'application/json': { schema: { type: 'object' } } } },
      },
      schemas: {
        Note: {
          type: 'object',
          properties: { id: { type: 'string' }, text: { type: 'string' } },
          required: ['id', 'text'],
        },
        NotePatch: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 1000 } },
          additionalProperties: false,
        },
      },
    },
  };
}

describe('openapiBreaks', () => {
  it('finds nothing between a document and its copy', () => {
    expect(openapiBreaks(doc(), doc())).toEqual([]);
  });

  it('resolves component parameters, responses and schemas within each document', () => {
    const after = doc();
    after.components.parameters.Id.schema.maxLength = 20;
    delete after.components.schemas.Note.properties.text;
    after.components.responses.NotFound.content = {};
    expect(openapiBreaks(doc(), after)).toEqual([
      'GET /notes/{id} (getNote) path parameter id: maxLength tightened from 40 to 20',
      'GET /notes/{id} (getNote) response 200 application/json.text: property removed',
      'GET /notes/{id} (getNote) response 404 application/json: content type removed',
      'PATCH /notes/{id} (updateNote) path parameter id: maxLength tightened from 40 to 20',
    ]);
  });

  it('reports a removed parameter, a parameter made required and a narrowed parameter', () => {
    const after = doc();
    after.paths['/notes/{id}'].get.parameters = [
      { name: 'format', in: 'query', required: true, schema: { enum: ['json'] } },
    ];
    after.paths['/notes/{id}'].parameters = [];
    expect(openapiBreaks(doc(), after)).toEqual([
      'GET /notes/{id} (getNote) path parameter id: removed',
      'GET /notes/{id} (getNote) query parameter format: value "markdown" removed',
      'GET /notes/{id} (getNote) query parameter format: new required parameter',
      'PATCH /notes/{id} (updateNote) path parameter id: removed',
    ]);
  });

  it('reports a request body made required, removed, or narrowed, and a removed response content type', () => {
    const required = doc();
    required.paths['/notes/{id}'].patch.requestBody.required = true;
    required.components.schemas.NotePatch.properties.text.maxLength = 500;
    delete required.paths['/notes/{id}'].get.responses['200'].content['text/markdown'];
    expect(openapiBreaks(doc(), required)).toEqual([
      'GET /notes/{id} (getNote) response 200 text/markdown: content type removed',
      'PATCH /notes/{id} (updateNote) request body: now required',
      'PATCH /notes/{id} (updateNote) request body application/json.text: maxLength tightened from 1000 to 500',
    ]);
    const removed = doc();
    delete removed.paths['/notes/{id}'].patch.requestBody;
    expect(openapiBreaks(doc(), removed)).toEqual(['PATCH /notes/{id} (updateNote) request body: removed']);
  });

  it('follows an operation to its new path by operationId, reporting only the lost path', () => {
    const after = doc();
    after.paths['/v2/notes/{id}'] = after.paths['/notes/{id}'];
    delete after.paths['/notes/{id}'];
    expect(openapiBreaks(doc(), after)).toEqual([
      'GET /notes/{id} (getNote): GET /notes/{id} removed',
      'PATCH /notes/{id} (updateNote): PATCH /notes/{id} removed',
    ]);
  });

  it('accepts an added optional parameter, response status, content type and operation', () => {
    const after = doc();
    after.paths['/notes/{id}'].get.parameters.push({ name: 'lang', in: 'query', schema: { type: 'string' } });
    after.paths['/notes/{id}'].get.responses['410'] = { description: 'Gone.' };
    after.paths['/notes/{id}'].get.responses['200'].content['text/plain'] = { schema: { type: 'string' } };
    after.paths['/notes/{id}'].delete = {
      operationId: 'deleteNote',
      responses: { '204': { description: 'Deleted.' } },
    };
    expect(openapiBreaks(doc(), after)).toEqual([]);
  });
});

describe('contractBreaks', () => {
  const bus: BusSnapshot = {
    subjects: { 'a.b.c': { kind: 'fact', owner: 'a', versions: { '1': { payload: { type: 'object' } } } } },
  };

  it('skips the bus with a note while no bus snapshot is committed', () => {
    expect(contractBreaks({ openapi: doc() }, { openapi: doc(), bus })).toEqual({
      breaks: [],
      notes: ['bus.json has no snapshot yet: the bus table is not checked'],
    });
  });

  it('prefixes each break with its part, and refuses a committed bus snapshot with no current table', () => {
    const after = doc();
    delete after.paths['/notes/{id}'].patch;
    expect(contractBreaks({ openapi: doc(), bus }, { openapi: after }).breaks).toEqual([
      'openapi: PATCH /notes/{id} (updateNote): operation updateNote removed',
      'openapi: PATCH /notes/{id} (updateNote): PATCH /notes/{id} removed',
      'bus: a bus snapshot is committed but the current bus table was not given',
    ]);
    expect(contractBreaks({ bus }, { openapi: doc(), bus: { subjects: {} } }).breaks).toEqual([
      'bus: a.b.c: subject removed',
    ]);
  });

  it('accepts a request bound the contract states only as the exact line stated-bounds.ts names', () => {
    const ask = (question: Doc): Doc => ({
      openapi: '3.1.0',
      paths: {
        '/ask': {
          post: {
            operationId: 'ask',
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { question } } } } },
            responses: {},
          },
        },
      },
    });
    const before = ask({ type: 'string', pattern: '\\S' });
    expect(
      contractBreaks({ openapi: before }, { openapi: ask({ type: 'string', pattern: '\\S', maxLength: 1000 }) }).breaks,
    ).toEqual([]);
    expect(
      contractBreaks({ openapi: before }, { openapi: ask({ type: 'string', pattern: '\\S', maxLength: 999 }) }).breaks,
    ).toEqual([
      'openapi: POST /ask (ask) request body application/json.question: maxLength tightened from none to 999',
    ]);
  });
});
