// Generic references name fields with Crossplane's field path syntax (crossplane-runtime
// `pkg/fieldpath`): `fromObject.fieldPath` says where to read on another object and `toFieldPath`
// where to write on this one. Using the same syntax means paths copied from Crossplane manifests
// keep working. Everything here is pure, so the resolver, the admission checks and the reverse
// index all agree on what a path means.
//
// Decisions callers should know:
// - Only brackets make indexes: `a[0]` is index 0, while `a.0` is a field named "0" (as in
//   Crossplane). A bracketed name made only of ASCII digits is always an index, so a field named
//   "0" is written `a["0"]` (or `a.0`), and formatFieldPath writes it quoted so nobody reads it
//   as an index. `[-1]` is an error, never a field; write `["-1"]` for that name.
// - Brackets hold any name up to the first `]`, dots and slashes included:
//   `metadata.labels[app.kubernetes.io/name]`. Quotes (`["tls.crt"]`, `['tls.crt']`) are needed
//   only for names that contain `]`, start with a quote, or are all digits. There are no escapes,
//   so the empty name and names that hold both quote characters and also need brackets cannot be
//   written; formatFieldPath throws FieldPathError for those.
// - Reading never throws for missing data. A field segment reads only plain objects (own keys
//   only, so `constructor` or `__proto__` never reach the prototype) and an index segment reads
//   only arrays. Writing treats null like a missing value and creates what it needs.

export type Segment = { type: 'field'; name: string } | { type: 'index'; index: number };

/** A malformed path, or a write the object's shape does not allow. The message quotes the path. */
export class FieldPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldPathError';
  }
}

export function parseFieldPath(path: string): Segment[] {
  if (path === '') throw new FieldPathError('field path "" is empty');
  const segments: Segment[] = [];
  let pos = path.startsWith('[') ? readBracket(path, 0, segments) : readName(path, 0, segments);
  while (pos < path.length) {
    const next = path[pos];
    if (next === '.') pos = readName(path, pos + 1, segments);
    else if (next === '[') pos = readBracket(path, pos, segments);
    else throw syntaxError(path, pos, `unexpected ${JSON.stringify(next)} after "]"; expected "." or "["`);
  }
  return segments;
}

/** The canonical string for segments: names that contain '.', '[' or ']' are bracketed; indexes as [n]. parse(format(s)) deep-equals s. */
export function formatFieldPath(segments: readonly Segment[]): string {
  return segments.map((segment, i) => formatSegment(segment, i === 0, true)).join('');
}

/** Reads the value at path; undefined when any step is missing or of the wrong type (never throws for missing data; throws FieldPathError only for a malformed path). */
export function getValue(object: unknown, path: string | readonly Segment[]): unknown {
  let current = object;
  for (const segment of toSegments(path)) {
    if (segment.type === 'field') {
      current = isRecord(current) && Object.hasOwn(current, segment.name) ? current[segment.name] : undefined;
    } else {
      current = Array.isArray(current) ? (current[segment.index] as unknown) : undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * Returns a deep copy of object with value set at path, creating intermediate objects (for field
 * segments) and arrays (for index segments) as needed. An index may append at the array's length
 * but not leave a gap beyond it; that, and setting through a scalar, throws FieldPathError naming
 * the segment. Neither the input nor value is ever mutated, and the result shares nothing mutable
 * with them.
 */
export function setValue<T>(object: T, path: string | readonly Segment[], value: unknown): T {
  const segments = toSegments(path);
  if (segments.length === 0) throw new FieldPathError('cannot set a value at an empty field path');
  return withValue(object, segments, 0, value) as T;
}

/** True when the path starts with the given prefix segments (for example to check that a toFieldPath stays under spec). */
export function hasPrefix(path: readonly Segment[], prefix: readonly Segment[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => sameSegment(segment, path[i]));
}

function readName(path: string, start: number, segments: Segment[]): number {
  let end = start;
  while (end < path.length && !'.[]'.includes(path[end]!)) end++;
  if (path[end] === ']') throw syntaxError(path, end, 'unexpected "]" without a matching "["');
  if (end === start) throw syntaxError(path, start, 'empty field name');
  segments.push({ type: 'field', name: path.slice(start, end) });
  return end;
}

function readBracket(path: string, open: number, segments: Segment[]): number {
  const quote = path[open + 1];
  if (quote === '"' || quote === "'") {
    const closeQuote = path.indexOf(quote, open + 2);
    if (closeQuote === -1) throw syntaxError(path, open + 1, `unclosed quote ${quote}`);
    if (path[closeQuote + 1] !== ']') {
      if (closeQuote + 1 === path.length) throw syntaxError(path, open, 'unclosed "["');
      throw syntaxError(path, closeQuote + 1, 'expected "]" after the closing quote');
    }
    if (closeQuote === open + 2) throw syntaxError(path, open, 'empty name in brackets');
    segments.push({ type: 'field', name: path.slice(open + 2, closeQuote) });
    return closeQuote + 2;
  }
  const close = path.indexOf(']', open + 1);
  if (close === -1) throw syntaxError(path, open, 'unclosed "["');
  const content = path.slice(open + 1, close);
  if (content === '') throw syntaxError(path, open, 'empty brackets');
  if (/^-\d+$/.test(content)) throw syntaxError(path, open + 1, `negative index ${content}`);
  if (/^\d+$/.test(content)) {
    const index = Number(content);
    if (!Number.isSafeInteger(index)) throw syntaxError(path, open + 1, `index ${content} is too large`);
    segments.push({ type: 'index', index });
  } else {
    segments.push({ type: 'field', name: content });
  }
  return close + 1;
}

function syntaxError(path: string, position: number, problem: string): FieldPathError {
  return new FieldPathError(`invalid field path ${JSON.stringify(path)}: ${problem} at position ${position}`);
}

// `strict` is for formatFieldPath, whose output must parse back; error messages use the lenient
// form so that describing a bad path never throws a second error.
function formatSegment(segment: Segment, first: boolean, strict: boolean): string {
  if (segment.type === 'index') {
    if (strict && !isIndex(segment.index)) throw new FieldPathError(`cannot format index ${segment.index}: not a non-negative integer`);
    return `[${segment.index}]`;
  }
  const { name } = segment;
  if (/^\d+$/.test(name)) return `["${name}"]`;
  if (name !== '' && !/[.[\]]/.test(name)) return first ? name : `.${name}`;
  if (name !== '' && !name.includes(']') && !/^["']/.test(name)) return `[${name}]`;
  if (name !== '' && !name.includes('"')) return `["${name}"]`;
  if (name !== '' && !name.includes("'")) return `['${name}']`;
  if (strict) throw new FieldPathError(`cannot format field name ${JSON.stringify(name)}: the field path syntax cannot express it`);
  return `[${JSON.stringify(name)}]`;
}

function describe(segments: readonly Segment[]): string {
  return JSON.stringify(segments.map((segment, i) => formatSegment(segment, i === 0, false)).join(''));
}

function toSegments(path: string | readonly Segment[]): readonly Segment[] {
  return typeof path === 'string' ? parseFieldPath(path) : path;
}

function withValue(current: unknown, segments: readonly Segment[], depth: number, value: unknown): unknown {
  if (depth === segments.length) return deepCopy(value);
  const segment = segments[depth]!;
  if (segment.type === 'field') {
    const record = current ?? {};
    if (!isRecord(record)) throw shapeError(segments, depth, record, 'an object');
    const copy = copyRecord(record, segment.name);
    const child = Object.hasOwn(record, segment.name) ? record[segment.name] : undefined;
    defineOwn(copy, segment.name, withValue(child, segments, depth + 1, value));
    return copy;
  }
  const list = current ?? [];
  if (!Array.isArray(list)) throw shapeError(segments, depth, list, 'an array');
  if (!isIndex(segment.index)) {
    throw new FieldPathError(`cannot set field path ${describe(segments)}: ${segment.index} is not a valid index`);
  }
  if (segment.index > list.length) {
    throw new FieldPathError(
      `cannot set field path ${describe(segments)}: index ${segment.index} is beyond the end of ${where(segments, depth)}, ` +
        `which has ${list.length} items (an index may be at most the length, to append)`,
    );
  }
  const copy = (list as unknown[]).map((item, i) => (i === segment.index ? undefined : deepCopy(item)));
  copy[segment.index] = withValue(list[segment.index], segments, depth + 1, value);
  return copy;
}

function shapeError(segments: readonly Segment[], depth: number, found: unknown, needed: string): FieldPathError {
  const segment = formatSegment(segments[depth]!, true, false);
  return new FieldPathError(
    `cannot set field path ${describe(segments)}: ${where(segments, depth)} is ${kindOf(found)}, not ${needed}, ` +
      `so segment ${JSON.stringify(segment)} cannot be set in it`,
  );
}

function where(segments: readonly Segment[], depth: number): string {
  return depth === 0 ? 'the object' : describe(segments.slice(0, depth));
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return 'an object';
  return typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
}

function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  return isRecord(value) ? copyRecord(value) : value;
}

// `skip` is the key about to be replaced: it keeps its place in key order but is not copied twice.
function copyRecord(record: Record<string, unknown>, skip?: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(record)) defineOwn(copy, key, key === skip ? undefined : deepCopy(child));
  return copy;
}

// Plain assignment of `__proto__` would replace the prototype instead of adding a key.
function defineOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

// Only JSON-shaped objects are walked: class instances such as Date are values, not containers.
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isIndex(index: number): boolean {
  return Number.isSafeInteger(index) && index >= 0;
}

function sameSegment(a: Segment, b: Segment | undefined): boolean {
  if (a.type === 'field') return b?.type === 'field' && a.name === b.name;
  return b?.type === 'index' && a.index === b.index;
}

/**
 * The syntax parseFieldPath accepts, as one RE2 regular expression for the API server's CEL
 * (`self.matches(...)`): a name or a bracket, then `.name` or brackets. A bracket holds a quoted
 * name, an index, or a bare name that neither starts with a quote nor is a negative number.
 * It cannot tell an index too large to be safe: resolution reports that one.
 */
const NAME = `[^.\\[\\]]+`;
const BRACKET = `\\[(?:"[^"]+"|'[^']+'|[^\\]"'-][^\\]]*|-(?:[^\\]]*[^\\]0-9][^\\]]*)?)\\]`;
export const FIELD_PATH_PATTERN = `^(?:${NAME}|${BRACKET})(?:\\.${NAME}|${BRACKET})*$`;
