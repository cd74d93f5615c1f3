// Table tests for the field path syntax: each form a user may write in fromObject.fieldPath or
// toFieldPath, each mistake they may make (with a message that points at it), and how reads and
// writes treat objects of the wrong shape.
import { describe, expect, it } from 'vitest';
import { FieldPathError, formatFieldPath, getValue, hasPrefix, parseFieldPath, setValue, type Segment } from './fieldpath';

const f = (name: string): Segment => ({ type: 'field', name });
const i = (index: number): Segment => ({ type: 'index', index });

describe('parseFieldPath', () => {
  it.each<[string, Segment[]]>([
    ['spec', [f('spec')]],
    ['spec.forProvider.cidrBlock', [f('spec'), f('forProvider'), f('cidrBlock')]],
    ['spec.containers[0].name', [f('spec'), f('containers'), i(0), f('name')]],
    ['a.b[0].c', [f('a'), f('b'), i(0), f('c')]],
    ['items[0][1]', [f('items'), i(0), i(1)]],
    ['items[12]', [f('items'), i(12)]],
    ['items[007]', [f('items'), i(7)]],
    ['metadata.labels[app.kubernetes.io/name]', [f('metadata'), f('labels'), f('app.kubernetes.io/name')]],
    ['metadata.annotations[crossplane.io/external-name]', [f('metadata'), f('annotations'), f('crossplane.io/external-name')]],
    ['data[tls.crt]', [f('data'), f('tls.crt')]],
    ['data["tls.crt"]', [f('data'), f('tls.crt')]],
    ["data['tls.crt']", [f('data'), f('tls.crt')]],
    ['data["0"]', [f('data'), f('0')]],
    ["data['a]b']", [f('data'), f('a]b')]],
    ['data["it\'s"]', [f('data'), f("it's")]],
    ['data[a[b]', [f('data'), f('a[b')]],
    ['data[a b]', [f('data'), f('a b')]],
    ['data[-x]', [f('data'), f('-x')]],
    ['a.0', [f('a'), f('0')]],
    ['[0]', [i(0)]],
    ['[a.b].c', [f('a.b'), f('c')]],
    ['a[b].c[1]', [f('a'), f('b'), f('c'), i(1)]],
    ['a/b', [f('a/b')]],
  ])('parses %s', (path, expected) => {
    expect(parseFieldPath(path)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['', 'is empty'],
    ['a..b', 'empty field name at position 2'],
    ['.a', 'empty field name at position 0'],
    ['a.', 'empty field name at position 2'],
    ['a.[0]', 'empty field name at position 2'],
    ['a[0', 'unclosed "[" at position 1'],
    ['a[', 'unclosed "[" at position 1'],
    ['a["x"', 'unclosed "[" at position 1'],
    ['a["x]', 'unclosed quote " at position 2'],
    ['a["x"y]', 'expected "]" after the closing quote at position 5'],
    ['a[]', 'empty brackets at position 1'],
    ['a[""]', 'empty name in brackets at position 1'],
    ['a[0]b', 'unexpected "b" after "]"; expected "." or "[" at position 4'],
    ['a[0]]', 'unexpected "]" after "]"'],
    ['a]', 'unexpected "]" without a matching "[" at position 1'],
    ['a[-1]', 'negative index -1 at position 2'],
    ['a[99999999999999999999]', 'index 99999999999999999999 is too large'],
  ])('rejects %j: %s', (path, problem) => {
    const error = catchError(() => parseFieldPath(path));
    expect(error).toBeInstanceOf(FieldPathError);
    expect(error.message).toContain(`field path ${JSON.stringify(path)}`);
    expect(error.message).toContain(problem);
  });
});

describe('formatFieldPath', () => {
  it.each<[Segment[], string]>([
    [[f('spec'), f('forProvider'), f('cidrBlock')], 'spec.forProvider.cidrBlock'],
    [[f('spec'), f('containers'), i(0), f('name')], 'spec.containers[0].name'],
    [[f('items'), i(0), i(1)], 'items[0][1]'],
    [[f('metadata'), f('labels'), f('app.kubernetes.io/name')], 'metadata.labels[app.kubernetes.io/name]'],
    [[f('a.b'), f('c')], '[a.b].c'],
    [[f('data'), f('0')], 'data["0"]'],
    [[f('0')], '["0"]'],
    [[f('data'), f('-1')], 'data.-1'],
    [[f('data'), f('a]b')], 'data["a]b"]'],
    [[f('data'), f('"a.b')], `data['"a.b']`],
    [[f('data'), f('a[b')], 'data[a[b]'],
    [[i(3)], '[3]'],
    [[], ''],
  ])('formats %j as %s', (segments, expected) => {
    expect(formatFieldPath(segments)).toBe(expected);
    if (segments.length > 0) expect(parseFieldPath(expected)).toEqual(segments);
  });

  it.each<[Segment[], string]>([
    [[f('')], 'cannot format field name ""'],
    [[f('a'), f(`"it's]`)], 'cannot express it'],
    [[f('a'), i(-1)], 'cannot format index -1'],
    [[f('a'), i(1.5)], 'cannot format index 1.5'],
  ])('refuses %j, which would not parse back', (segments, problem) => {
    expect(() => formatFieldPath(segments)).toThrow(FieldPathError);
    expect(() => formatFieldPath(segments)).toThrow(problem);
  });
});

describe('getValue', () => {
  const vpc = {
    metadata: { annotations: { 'crossplane.io/external-name': 'vpc-123' }, labels: { 'app.kubernetes.io/name': 'net' } },
    spec: { forProvider: { cidrBlock: '10.0.0.0/16', tags: [{ key: 'a', value: 'b' }], enabled: false, note: null } },
    data: { '0': 'zero' },
    list: ['x', 'y'],
  };

  it.each<[string, unknown]>([
    ['spec.forProvider.cidrBlock', '10.0.0.0/16'],
    ['metadata.annotations[crossplane.io/external-name]', 'vpc-123'],
    ['metadata.labels["app.kubernetes.io/name"]', 'net'],
    ['spec.forProvider.tags[0].value', 'b'],
    ['spec.forProvider.tags[0]', { key: 'a', value: 'b' }],
    ['spec.forProvider.enabled', false],
    ['spec.forProvider.note', null],
    ['data["0"]', 'zero'],
    ['list[1]', 'y'],
    // missing data
    ['spec.forProvider.vpcId', undefined],
    ['status.atProvider.vpcId', undefined],
    ['spec.forProvider.tags[1].value', undefined],
    ['spec.forProvider.note.x', undefined],
    // wrong type: an index on an object, a field on an array or a scalar, a digit-named field on an array
    ['data[0]', undefined],
    ['list[0].length', undefined],
    ['list["0"]', undefined],
    ['spec.forProvider.cidrBlock.length', undefined],
    ['spec.forProvider.cidrBlock[0]', undefined],
    // inherited properties are not fields
    ['spec.constructor', undefined],
    ['spec.__proto__', undefined],
    ['spec.toString', undefined],
  ])('reads %s', (path, expected) => {
    expect(getValue(vpc, path)).toEqual(expected);
  });

  it('accepts parsed segments and reads through non-objects as missing', () => {
    expect(getValue(vpc, [f('spec'), f('forProvider'), f('cidrBlock')])).toBe('10.0.0.0/16');
    expect(getValue(vpc, [])).toBe(vpc);
    expect(getValue(undefined, 'a.b')).toBeUndefined();
    expect(getValue(null, 'a')).toBeUndefined();
    expect(getValue('text', '[0]')).toBeUndefined();
    expect(getValue({ when: new Date(0) }, 'when.getTime')).toBeUndefined();
  });

  it('throws FieldPathError for a malformed path, even on missing data', () => {
    expect(() => getValue(undefined, 'a..b')).toThrow(FieldPathError);
  });
});

describe('setValue', () => {
  it.each<[unknown, string, unknown, unknown]>([
    [{}, 'spec.forProvider.vpcId', 'vpc-1', { spec: { forProvider: { vpcId: 'vpc-1' } } }],
    [{ spec: { a: 1 } }, 'spec.b', 2, { spec: { a: 1, b: 2 } }],
    [{ spec: { a: 1 } }, 'spec.a', { x: [1] }, { spec: { a: { x: [1] } } }],
    [{}, 'metadata.labels[app.kubernetes.io/name]', 'net', { metadata: { labels: { 'app.kubernetes.io/name': 'net' } } }],
    [{}, 'spec.containers[0].name', 'c', { spec: { containers: [{ name: 'c' }] } }],
    [{}, 'items[0][0]', 1, { items: [[1]] }],
    [{ items: ['a', 'b'] }, 'items[1]', 'B', { items: ['a', 'B'] }],
    [{ items: ['a', 'b'] }, 'items[2]', 'c', { items: ['a', 'b', 'c'] }],
    [{ items: [{ a: 1 }] }, 'items[0].b', 2, { items: [{ a: 1, b: 2 }] }],
    [{ spec: null }, 'spec.a', 1, { spec: { a: 1 } }],
    [undefined, 'a', 1, { a: 1 }],
    [null, '[0]', 1, [1]],
    [{ data: {} }, 'data["0"]', 'zero', { data: { '0': 'zero' } }],
  ])('on %j sets %s to %j', (object, path, value, expected) => {
    expect(setValue(object, path, value)).toEqual(expected);
  });

  it('does not mutate the input or share anything mutable with it or the value', () => {
    const object = { spec: { forProvider: { tags: [{ key: 'a' }] } }, other: { deep: [1] } };
    const before = structuredClone(object);
    const value = { nested: ['v'] };
    const result = setValue(object, 'spec.forProvider.tags[1]', value);
    expect(object).toEqual(before);
    expect(result).toEqual({ spec: { forProvider: { tags: [{ key: 'a' }, { nested: ['v'] }] } }, other: { deep: [1] } });
    expect(result.other).not.toBe(object.other);
    expect(result.spec.forProvider.tags[0]).not.toBe(object.spec.forProvider.tags[0]);
    expect(getValue(result, 'spec.forProvider.tags[1]')).not.toBe(value);
  });

  it('keeps key order and adds keys as own properties, never as prototypes', () => {
    expect(Object.keys(setValue({ a: 1, b: 2, c: 3 }, 'b', 9))).toEqual(['a', 'b', 'c']);
    const result = setValue({}, [f('__proto__'), f('polluted')], true) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(getValue(result, [f('__proto__'), f('polluted')])).toBe(true);
  });

  it.each<[unknown, string | Segment[], string]>([
    [{ spec: 'x' }, 'spec.forProvider', '"spec" is a string, not an object, so segment "forProvider" cannot be set in it'],
    [{ spec: { n: 1 } }, 'spec.n[0]', '"spec.n" is a number, not an array, so segment "[0]" cannot be set in it'],
    [{ items: [] }, 'items.name', '"items" is an array, not an object'],
    [{ items: {} }, 'items[0]', '"items" is an object, not an array'],
    [{ when: new Date(0) }, 'when.x', '"when" is a non-plain object, not an object'],
    ['text', 'a', 'the object is a string'],
    [{ items: ['a'] }, 'items[2]', 'index 2 is beyond the end of "items", which has 1 items'],
    [{}, 'items[1]', 'index 1 is beyond the end of "items", which has 0 items'],
    [{}, 'a..b', 'empty field name'],
    [{}, [], 'empty field path'],
    [{ items: [] }, [f('items'), i(-1)], '-1 is not a valid index'],
  ])('on %j refuses %j', (object, path, problem) => {
    const error = catchError(() => setValue(object, path, 1));
    expect(error).toBeInstanceOf(FieldPathError);
    expect(error.message).toContain(problem);
    if (typeof path === 'string' && path !== '') expect(error.message).toContain(`field path ${JSON.stringify(path)}`);
  });
});

describe('hasPrefix', () => {
  const path = parseFieldPath('spec.forProvider.tags[0].key');
  it.each<[Segment[], boolean]>([
    [[], true],
    [[f('spec')], true],
    [[f('spec'), f('forProvider')], true],
    [parseFieldPath('spec.forProvider.tags[0]'), true],
    [path, true],
    [[f('status')], false],
    [[f('spec'), f('forProvider'), f('tags'), i(1)], false],
    [[f('spec'), f('forProvider'), f('tags'), f('0')], false],
    [parseFieldPath('spec.forProvider.tags[0].key.more'), false],
  ])('%j is a prefix: %s', (prefix, expected) => {
    expect(hasPrefix(path, prefix)).toBe(expected);
  });
});

function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
