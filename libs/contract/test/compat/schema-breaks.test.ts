import { nullable } from '../../src/schema-helpers';
import { schemaBreaks } from '../../src/compat';

/** A schema as JSON: any shape, so tests can mutate it freely. */
type Json = Record<string, any>;

const person: Json = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 60, pattern: '^\\S' },
    role: { enum: ['owner', 'member'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    note: { type: ['string', 'null'] },
  },
  required: ['name'],
  additionalProperties: false,
};

/** A copy of `person` changed by `edit`. */
function changed(edit: (s: Json) => void): Json {
  const copy = structuredClone(person);
  edit(copy);
  return copy;
}

describe('schemaBreaks', () => {
  it('finds nothing between a schema and itself', () => {
    expect(schemaBreaks(person, structuredClone(person), 'person')).toEqual([]);
  });

  it('reports a removed property, and a renamed one as removed', () => {
    const renamed = changed((s) => {
      (s.properties as Record<string, unknown>).fullName = s.properties.name;
      delete (s.properties as Partial<typeof s.properties>).name;
      s.required = ['fullName'];
    });
    expect(schemaBreaks(person, renamed, 'person')).toEqual([
      'person.name: property removed',
      'person.fullName: new required property',
    ]);
  });

  it('reports a narrowed type, a removed enum value and a changed const', () => {
    const after = changed((s) => {
      s.properties.note = { type: 'string' };
      s.properties.role = { enum: ['owner'] };
    });
    expect(schemaBreaks(person, after, 'p')).toEqual([
      'p.role: value "member" removed',
      'p.note: type narrowed, no longer null',
    ]);
    expect(schemaBreaks({ const: 1 }, { const: 2 }, 'v')).toEqual(['v: value 1 removed']);
    expect(schemaBreaks({ type: 'number' }, { type: 'integer' }, 'n')).toEqual(['n: type narrowed, no longer number']);
    expect(schemaBreaks({}, { type: 'string' }, 'any')).toEqual(['any: type restricted to ["string"]']);
  });

  it('reports a new required property, also one that was optional before', () => {
    const after = changed((s) => {
      s.required = ['name', 'role'];
    });
    expect(schemaBreaks(person, after, 'p')).toEqual(['p.role: new required property']);
  });

  it('reports tighter constraints, an added pattern and additionalProperties closed', () => {
    const after = changed((s) => {
      s.properties.name.maxLength = 40;
      s.properties.name.minLength = 2;
      s.properties.name.pattern = '^[a-z]';
      s.properties.tags.maxItems = 5;
    });
    expect(schemaBreaks(person, after, 'p')).toEqual([
      'p.name: maxLength tightened from 60 to 40',
      'p.name: minLength tightened from 1 to 2',
      'p.name: pattern changed from "^\\\\S" to "^[a-z]"',
      'p.tags: maxItems tightened from 10 to 5',
    ]);
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    expect(schemaBreaks(open, { ...open, additionalProperties: false }, 'o')).toEqual(['o{*}: no longer allowed']);
    expect(schemaBreaks({ type: 'integer', minimum: 0 }, { type: 'integer', minimum: 1, maximum: 9 }, 'i')).toEqual([
      'i: maximum tightened from none to 9',
      'i: minimum tightened from 0 to 1',
    ]);
  });

  it('accepts an added optional property, a wider type, an added enum value and looser constraints', () => {
    const after = changed((s) => {
      (s.properties as Record<string, unknown>).title = { type: 'string' };
      s.properties.role = { enum: ['owner', 'member', 'guest'] };
      s.properties.name.maxLength = 100;
      s.properties.name.minLength = 0;
      s.properties.tags.maxItems = 50;
      s.properties.tags.items = { type: ['string', 'number'] };
      s.additionalProperties = true;
    });
    expect(schemaBreaks(person, after, 'p')).toEqual([]);
    expect(schemaBreaks({ type: 'integer' }, { type: 'number' }, 'n')).toEqual([]);
    expect(schemaBreaks({ properties: { a: false, b: true } }, { properties: {} }, 'f')).toEqual([
      'f.b: property removed',
    ]);
  });

  it('recurses into items, additionalProperties and combinators by index', () => {
    const list = { type: 'array', items: person };
    const narrowed = {
      type: 'array',
      items: changed((s) => delete (s.properties as Partial<typeof s.properties>).role),
    };
    expect(schemaBreaks(list, narrowed, 'list')).toEqual(['list[].role: property removed']);
    const map = { type: 'object', additionalProperties: { type: 'integer', maximum: 10 } };
    expect(schemaBreaks(map, { type: 'object', additionalProperties: { type: 'integer', maximum: 5 } }, 'm')).toEqual([
      'm{*}: maximum tightened from 10 to 5',
    ]);
    const either = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    expect(schemaBreaks(either, { anyOf: [{ type: 'string' }] }, 'e')).toEqual(['e.anyOf[1]: removed']);
    expect(schemaBreaks(either, { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] }, 'e')).toEqual([
      'e.anyOf[0]: maxLength tightened from none to 3',
    ]);
    expect(
      schemaBreaks({ allOf: [{ type: 'object' }] }, { allOf: [{ type: 'object' }, { required: ['x'] }] }, 'a'),
    ).toEqual(['a.allOf[1].x: new required property']);
  });

  it('accepts a schema made nullable and refuses the reverse', () => {
    const ref = { $ref: '#/$defs/person', $defs: { person } };
    const made = { anyOf: [{ $ref: '#/$defs/person' }, { type: 'null' }], $defs: { person } };
    expect(schemaBreaks(ref, made, 'p')).toEqual([]);
    expect(schemaBreaks({ type: 'string' }, nullable({ type: 'string' }), 's')).toEqual([]);
    expect(schemaBreaks(made, ref, 'p')).toEqual(['p: type narrowed, no longer null']);
  });

  it("resolves $ref within each side's own document", () => {
    const oldDoc = { components: { schemas: { Person: person } } };
    const newDoc = {
      components: { schemas: { Person: changed((s) => delete (s.properties as Partial<typeof s.properties>).note) } },
    };
    const at = { $ref: '#/components/schemas/Person' };
    expect(schemaBreaks(at, at, 'body', { old: oldDoc, new: newDoc })).toEqual(['body.note: property removed']);
  });

  it('ends on a recursive schema', () => {
    const node = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } };
    const tree = { $defs: { node }, $ref: '#/$defs/node' };
    expect(schemaBreaks(tree, structuredClone(tree), 'tree')).toEqual([]);
  });

  it('ignores descriptions in both languages', () => {
    const after = changed((s) => {
      (s.properties.name as Record<string, unknown>).description = 'The name.';
      (s.properties.name as Record<string, unknown>)['x-svc-description-fa'] = 'نام.';
    });
    expect(schemaBreaks(person, after, 'p')).toEqual([]);
  });

  it('accepts tighter bounds and an added format or pattern in what the service answers, not in what it takes', () => {
    const after = changed((s) => {
      s.properties.name.maxLength = 30;
      s.properties.note.maxLength = 500;
      s.properties.note.pattern = '^[a-z ]+$';
      s.properties.tags.uniqueItems = true;
    });
    expect(schemaBreaks(person, after, 'p', undefined, true)).toEqual([]);
    expect(schemaBreaks(person, after, 'p')).toEqual([
      'p.name: maxLength tightened from 60 to 30',
      'p.tags: items must now be unique',
      'p.note: maxLength tightened from none to 500',
      'p.note: pattern changed from none to "^[a-z ]+$"',
    ]);
    // A changed pattern (not an added one) is a break in an answer too.
    const repatterned = changed((s) => void (s.properties.name.pattern = '^[a-z]'));
    expect(schemaBreaks(person, repatterned, 'p', undefined, true)).toEqual([
      `p.name: pattern changed from ${JSON.stringify('^\\S')} to "^[a-z]"`,
    ]);
  });

  it('accepts an integer format its old bounds implied, and bounds beyond the integers JSON carries exactly', () => {
    const count = { type: 'integer', minimum: 1, maximum: 100 };
    const open = { type: 'integer', minimum: 1 };
    expect(schemaBreaks(count, { ...count, format: 'int32' }, 'c')).toEqual([]);
    expect(schemaBreaks(open, { ...open, format: 'int64', maximum: Number.MAX_SAFE_INTEGER }, 'o')).toEqual([]);
    expect(schemaBreaks(open, { ...open, format: 'int32' }, 'o')).toEqual(['o: format changed from none to "int32"']);
    expect(schemaBreaks(open, { ...open, maximum: 2 ** 31 - 1 }, 'o')).toEqual([
      'o: maximum tightened from none to 2147483647',
    ]);
  });
});
