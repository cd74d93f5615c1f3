// When an Object is Ready: provider-kubernetes' readiness policies, over the target object as
// last observed. SuccessfulCreate (the default) once it exists; DeriveFromObject from its own
// Ready condition; AllTrue when it has conditions and all are True; DeriveFromCelQuery when a
// CEL expression over `object` holds. A query that cannot be evaluated on this object (a field
// it reads is not there yet) leaves the Object unavailable with CEL's message, as upstream does:
// the object may yet change. A query that is wrong whatever the object holds (it does not
// compile, names a variable other than `object`, or gives no bool) is a mistake in the spec:
// the verdict says so (invalidSpec), so that the pass fails and backs off until the spec changes.
import { Environment } from '@marcbachmann/cel-js';
import type { Readiness } from '#core/external-client';

export interface ReadinessSpec {
  policy?: 'SuccessfulCreate' | 'DeriveFromObject' | 'AllTrue' | 'DeriveFromCelQuery';
  celQuery?: string;
}

interface ReadinessVerdict {
  readiness: Readiness;
  readinessMessage?: string;
  /** The policy can never be evaluated as written; readinessMessage says why. */
  invalidSpec?: true;
}

interface Condition {
  type?: unknown;
  status?: unknown;
}

const AVAILABLE: ReadinessVerdict = { readiness: 'Available' };

export function readinessOf(spec: ReadinessSpec | undefined, live: Record<string, unknown>): ReadinessVerdict {
  switch (spec?.policy ?? 'SuccessfulCreate') {
    case 'SuccessfulCreate':
      return AVAILABLE;
    case 'DeriveFromObject': {
      const ready = conditionsOf(live).find((c) => c.type === 'Ready');
      return ready?.status === 'True' ? AVAILABLE : unavailable(`the object's Ready condition is ${String(ready?.status ?? 'not set')}`);
    }
    case 'AllTrue': {
      const conditions = conditionsOf(live);
      if (conditions.length === 0) return unavailable('the object has no conditions yet');
      const notTrue = conditions.filter((c) => c.status !== 'True').map((c) => `${String(c.type)}=${String(c.status)}`);
      return notTrue.length === 0 ? AVAILABLE : unavailable(`not all of the object's conditions are True: ${notTrue.join(', ')}`);
    }
    case 'DeriveFromCelQuery':
      return celVerdict(spec?.celQuery ?? '', live);
  }
}

function conditionsOf(live: Record<string, unknown>): Condition[] {
  const conditions = (live.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? (conditions.filter((c) => c && typeof c === 'object') as Condition[]) : [];
}

const unavailable = (readinessMessage: string): ReadinessVerdict => ({ readiness: 'Unavailable', readinessMessage });

const invalid = (readinessMessage: string): ReadinessVerdict => ({ readiness: 'Unavailable', readinessMessage, invalidSpec: true });

/** Upstream's environment: `object` is the only variable, of any type. */
const environment = new Environment({ unlistedVariablesAreDyn: false }).registerVariable('object', 'dyn');
type Program = ReturnType<Environment['parse']>;
/** Compiled queries by text: thousands of Objects usually share a handful of queries. */
const programs = new Map<string, Program | Error>();
const MAX_PROGRAMS = 1_000;

function celVerdict(query: string, live: Record<string, unknown>): ReadinessVerdict {
  if (query.trim() === '') return invalid('readiness.celQuery must be set when the policy is DeriveFromCelQuery');
  const program = compiled(query);
  if (program instanceof Error) return invalid(`readiness.celQuery does not compile: ${firstLine(program)}`);
  let value: unknown;
  try {
    value = program({ object: live });
  } catch (error) {
    return unavailable(`readiness.celQuery cannot be evaluated: ${firstLine(error)}`);
  }
  if (typeof value !== 'boolean') return invalid(`readiness.celQuery must return a bool, but returned ${String(value)}`);
  return value ? AVAILABLE : unavailable(`readiness.celQuery is false: ${query}`);
}

function compiled(query: string): Program | Error {
  let program = programs.get(query);
  if (program === undefined) {
    try {
      program = environment.parse(query);
      // Type checking finds what parsing cannot: an unknown variable, `1 + 'a'`, a query whose
      // type is known not to be bool. `object` is dyn, so most queries are checked at run time.
      const { valid, type, error } = program.check();
      if (!valid) program = error ?? new Error('the query does not type-check');
      else if (type !== 'bool' && type !== 'dyn') program = new Error(`it returns ${type}, not bool`);
    } catch (error) {
      program = error instanceof Error ? error : new Error(String(error));
    }
    if (programs.size >= MAX_PROGRAMS) programs.clear();
    programs.set(query, program);
  }
  return program;
}

/** CEL's errors draw the expression under the message; the condition keeps the message. */
function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error)
    .split('\n')[0]!
    .trim();
}
