// The bad-input corpus (issue 21): what real users get wrong and hostile users try, across every
// kind, each with the outcome the user should get. Against one control plane with the
// production poll intervals, so a hot loop shows as it would in production:
// 1. every case's setup is applied in one batch, and what an edit needs is waited for;
// 2. admission cases, one by one: kubectl is refused with a message naming the mistake, and
//    nothing is stored;
// 3. condition cases, all bad manifests in one batch as `kubectl apply -f dir/` sends them: each
//    gets its condition within seconds, keeps it, and costs no more passes than backing off allows;
// 4. everything is deleted, and nothing is stuck, nor left at EC2, in the target clusters, or in
//    the corpus namespace.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane, remoteKubectl } from '../integration/harness';
import { leftovers } from '../integration/network';
import { REMOTE_CLUSTER_NAMES } from '#stack/test-stack';
import { workflowIdFor } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import { isRefused, TARGET_NAMESPACE, type BadInputCase, type ExplainedInCondition } from './case';
import { awsCases } from './aws.cases';
import { managedKinds } from '#providers/registry';
import { allCrds } from '#providers/all-crds';
import { ec2KindFixtures } from '#test/kind-fixtures';
import { kubernetesCases } from './kubernetes.cases';
import { applyAll, deleteAll, describeId, Discovery, keyOf, listAll, readOne, type ObjectId, type StoredObject } from './cluster';
import { maxPassesPerWindow, passesPerWindow, readPasses, WINDOW_SECONDS, type PassCount } from './hot-loop';
import { clusterScopedNamed, localKubectl, namespaceContents } from './leftovers';
import { corpusProblems, describePlaced, distinctObjects, expectedMessage, prepare, shows, type Placed, type PreparedCase } from './runner';

/** The AWS cases: aws.cases.ts's, and those a kind keeps in its own folder (test/kind-fixtures.ts). */
const awsOnes: BadInputCase[] = [...awsCases, ...(await ec2KindFixtures()).flatMap((f) => f.badInputCases ?? [])];
const cases: BadInputCase[] = [...awsOnes, ...kubernetesCases];
const MIN_CASES = 150;
const MIN_AWS_CASES = 95;

/** "Within seconds": every condition case of the batch explains itself within this. */
const CONDITION_DEADLINE_SECONDS = 90;
/** Setup objects an edit needs are Ready within this. */
const READY_FIRST_DEADLINE_SECONDS = 120;
/** Every object is gone within this of its delete (nothing stuck in Deleting). */
const DELETION_DEADLINE_SECONDS = 120;
/** What owner-reference garbage collection (connection Secrets, targets' dependents) may take. */
const GARBAGE_COLLECTION_SECONDS = 30;
const POLL_MS = 1_000;

/** The AWS provider's groups: aws.chronoplane.io (its configs) and ec2.aws.chronoplane.io. */
const isAws = (group: string) => group === 'aws.chronoplane.io' || group.endsWith('.aws.chronoplane.io');
/** `Kind.group` of a manifest. */
const qualifiedKind = (m: { apiVersion: string; kind: string }) => `${m.kind}.${m.apiVersion.split('/')[0]}`;

const admissionCases = cases.filter((c) => isRefused(c.expect));
const conditionCases = cases.filter((c) => !isRefused(c.expect));

let plane: ControlPlane;
const prepared = new Map<string, PreparedCase>();
/** Why a case could not be tried: its setup was refused, or what an edit needs never became Ready. */
const brokenSetups = new Map<string, string>();

const preparedCase = (c: BadInputCase): PreparedCase => {
  const broken = brokenSetups.get(c.name);
  if (broken) throw new Error(`case ${c.name} could not be set up: ${broken}`);
  return prepared.get(c.name)!;
};

/** The interval of the loops below, each of which waits for a condition (with a deadline). */
const untilNextPoll = () => sleep(POLL_MS);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

beforeAll(async () => {
  // The production poll intervals (each kind's own: a minute steady, 5 s pending), not the
  // harness's 1 s and 3 s: an empty value makes the worker fall back to the kind's default.
  plane = await ControlPlane.start('bad-input', { CHRONOPLANE_POLL_STEADY_SECONDS: '', CHRONOPLANE_POLL_PENDING_SECONDS: '' });
  const targetNamespace = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: TARGET_NAMESPACE } });
  await Promise.all(REMOTE_CLUSTER_NAMES.map((remote) => remoteKubectl(remote, ['apply', '-f', '-'], targetNamespace)));
  const discovery = await Discovery.load(cases.flatMap((c) => [...(c.setup ?? []), ...c.apply].map((m) => m.apiVersion)));
  for (const c of cases) {
    try {
      prepared.set(c.name, prepare(c, plane.namespace, discovery));
    } catch (error) {
      brokenSetups.set(c.name, (error as Error).message);
    }
  }
  const ready = [...prepared.values()].filter((p) => !brokenSetups.has(p.case.name));
  const setupAt = Date.now();
  for (const [name, error] of await applyEachCase(ready, (p) => p.setup)) brokenSetups.set(name, `setup refused: ${error}`);
  for (const [name, error] of await waitForReadyFirst(ready.filter((p) => !brokenSetups.has(p.case.name)))) brokenSetups.set(name, error);
  console.log(
    `${cases.length} cases: setups applied and readyFirst waited for in ${seconds(Date.now() - setupAt)}, ${brokenSetups.size} broken`,
  );
});

afterAll(async () => {
  await Promise.all(
    REMOTE_CLUSTER_NAMES.map((remote) =>
      remoteKubectl(remote, ['delete', 'namespace', TARGET_NAMESPACE, '--wait=false', '--ignore-not-found']).catch(() => undefined),
    ),
  );
  await plane?.stop();
});

/**
 * Applies each case's `pick` in one batch, as `kubectl apply -f dir/` would, and returns the
 * refusals by case. kubectl goes on past a refused object and names it in its error, and every
 * object is named after its case, so the error says whose it was; only an error that names no
 * case's object makes it apply case by case to find out.
 */
async function applyEachCase(batch: PreparedCase[], pick: (p: PreparedCase) => Placed[]): Promise<Map<string, string>> {
  const refused = await applyBatch(
    batch.filter((p) => !p.case.serverSide),
    pick,
  );
  // Server-side, one by one: objects too large for the last-applied annotation.
  for (const p of batch.filter((c) => c.case.serverSide)) {
    await applyAll(
      pick(p).map((placed) => placed.manifest),
      { serverSide: true },
    ).catch((error: Error) => refused.set(p.case.name, error.message));
  }
  return refused;
}

async function applyBatch(batch: PreparedCase[], pick: (p: PreparedCase) => Placed[]): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  try {
    await applyAll(batch.flatMap((p) => pick(p).map((placed) => placed.manifest)));
    return refused;
  } catch (error) {
    // A line per refused object (`The VPC "x" is invalid: …`, `Error from server …`), then the
    // rest of its message indented or bulleted; warnings are no refusals.
    const unattributed: string[] = [];
    let owner: string | undefined;
    for (const line of (error as Error).message.replace(/^kubectl apply -f -: /, '').split('\n')) {
      if (line.trim() === '' || line.startsWith('Warning:')) continue;
      if (!/^(\s|\*)/.test(line)) {
        owner = batch.find((p) => pick(p).some((placed) => line.includes(`"${placed.id.name}"`)))?.case.name;
        if (!owner) unattributed.push(line);
      }
      if (owner) refused.set(owner, [refused.get(owner), line].filter(Boolean).join('\n'));
    }
    if (refused.size > 0 && unattributed.length === 0) return refused;
    console.warn(`kubectl's errors name no case's object, so applying case by case to find out:\n${unattributed.join('\n')}`);
  }
  refused.clear();
  for (const p of batch) {
    await applyAll(pick(p).map((placed) => placed.manifest)).catch((error: Error) => refused.set(p.case.name, error.message));
  }
  return refused;
}

/** Waits until every case's readyFirst objects are Ready; returns, by case, what never was. */
async function waitForReadyFirst(batch: PreparedCase[]): Promise<Map<string, string>> {
  const waiting = new Map(batch.filter((p) => p.readyFirst.length > 0).map((p) => [p.case.name, p]));
  const deadline = Date.now() + READY_FIRST_DEADLINE_SECONDS * 1000;
  let stored = new Map<string, StoredObject>();
  while (waiting.size > 0 && Date.now() < deadline) {
    stored = await listAll([...waiting.values()].flatMap((p) => p.readyFirst.map((r) => r.resource!)));
    for (const [name, p] of waiting) {
      const allReady = p.readyFirst.every((r) => stored.get(keyOf(r.id))?.status?.conditions?.some(isReadyTrue));
      if (allReady) waiting.delete(name);
    }
    if (waiting.size > 0) await untilNextPoll();
  }
  return new Map(
    [...waiting.values()].map((p) => {
      const notReady = p.readyFirst
        .filter((r) => !stored.get(keyOf(r.id))?.status?.conditions?.some(isReadyTrue))
        .map((r) => `${describePlaced(r)} (conditions ${JSON.stringify(stored.get(keyOf(r.id))?.status?.conditions ?? null)})`);
      return [p.case.name, `not Ready within ${READY_FIRST_DEADLINE_SECONDS} s: ${notReady.join('; ')}`];
    }),
  );
}

const isReadyTrue = (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True';

/** One object, read on its own; undefined when absent or of a kind the server does not serve. */
async function stored(placed: Placed): Promise<StoredObject | undefined> {
  return placed.resource ? readOne(placed.manifest, placed.id) : undefined;
}

/** The object's workflow in one line, for a case that failed: its passes and last error. */
async function workflowSummary(id: ObjectId): Promise<string> {
  try {
    const state = await plane.temporal.workflow.getHandle(workflowIdFor(id)).query(stateQuery);
    return `workflow: ${state.passes} passes, ${state.consecutiveFailures} failing in a row, last ${JSON.stringify(state.lastPass)}`;
  } catch (error) {
    return `workflow ${workflowIdFor(id)}: ${(error as Error).message}`;
  }
}

describe('the corpus', () => {
  it(`has at least ${MIN_CASES} cases, ${MIN_AWS_CASES} of them AWS`, () => {
    expect(awsOnes.length).toBeGreaterThanOrEqual(MIN_AWS_CASES);
    // The kubernetes cases come from their own file; until it is filled only the AWS count holds.
    if (kubernetesCases.length > 0) expect(cases.length).toBeGreaterThanOrEqual(MIN_CASES);
  });

  it('has unique case names, and every object is named after its case', () => {
    expect(corpusProblems(cases)).toEqual([]);
  });

  it('tries every AWS kind of the registry and every AWS provider config', () => {
    const subjects = new Set(awsOnes.map((c) => qualifiedKind(c.apply[c.apply.length - 1]!)));
    const managed = managedKinds.filter((k) => isAws(k.api.group)).map((k) => `${k.api.kind}.${k.api.group}`);
    const configs = allCrds()
      .filter((crd) => isAws(crd.spec.group) && !managedKinds.some((k) => `${k.api.plural}.${k.api.group}` === crd.metadata.name))
      .map((crd) => `${crd.spec.names.kind}.${crd.spec.group}`);
    expect(managed.length).toBeGreaterThan(0);
    expect(configs.length).toBeGreaterThan(0);
    expect([...managed, ...configs].filter((kind) => !subjects.has(kind))).toEqual([]);
  });
});

describe('refused at admission', () => {
  for (const c of admissionCases) {
    it(`${c.name}: ${c.mistake}`, async () => {
      const p = preparedCase(c);
      for (const earlier of p.apply.slice(0, -1)) await applyAll([earlier.manifest]);
      // An edit of an object the case made must leave it as it was; anything else must not exist.
      const edits = [...p.setup, ...p.apply.slice(0, -1)].some((o) => keyOf(o.id) === keyOf(p.subject.id));
      const before = edits ? await stored(p.subject) : undefined;
      if (edits) expect(before, `${describePlaced(p.subject)}, which the case edits, does not exist`).toBeDefined();
      const refusal = await applyAll([p.subject.manifest]).then(
        () => undefined,
        (error: Error) => error.message,
      );
      const message = expectedMessage(isRefused(c.expect) ? c.expect.refused.message : /$^/, plane.namespace);
      expect(refusal, `${describePlaced(p.subject)} was admitted; expected a refusal matching ${message}`).toBeDefined();
      expect(refusal).toMatch(message);
      const after = await stored(p.subject);
      if (before) expect(after?.metadata.generation, 'the refused edit changed the stored spec').toBe(before.metadata.generation);
      else expect(after, `${describePlaced(p.subject)} exists after its refusal`).toBeUndefined();
    });
  }
});

interface ConditionResult {
  /** Why the bad manifest never got in: kubectl refused it. */
  refused?: string;
  /** Since the batch was applied, when the expected condition first showed. */
  shownAfterMs?: number;
  /** The subject as last listed while waiting, and at the end of the hot-loop window. */
  lastSeen?: StoredObject;
  atWindowEnd?: StoredObject;
}

const conditionResults = new Map<string, ConditionResult>();
const passes = { start: new Map<ObjectId, PassCount>(), end: new Map<ObjectId, PassCount>() };
const PASS_BOUND = maxPassesPerWindow(WINDOW_SECONDS);

describe('explained in a condition', () => {
  const expectedOf = (c: BadInputCase) => (c.expect as ExplainedInCondition).condition;

  beforeAll(async () => {
    const batch = conditionCases.filter((c) => !brokenSetups.has(c.name)).map((c) => prepared.get(c.name)!);
    for (const p of batch) conditionResults.set(p.case.name, {});
    const batchStarted = Date.now();
    const refusals = await applyEachCase(batch, (p) => p.apply);
    // From when the batch is in: what the control plane takes from there is what is measured.
    const appliedAt = Date.now();
    for (const [name, error] of refusals) conditionResults.get(name)!.refused = error;

    // One list per poll for the whole batch, until every case shows its condition.
    const pending = new Map(batch.filter((p) => !conditionResults.get(p.case.name)!.refused).map((p) => [p.case.name, p]));
    const subjects = [...pending.values()].map((p) => p.subject);
    const deadline = appliedAt + CONDITION_DEADLINE_SECONDS * 1000;
    while (pending.size > 0 && Date.now() < deadline) {
      const listed = await listAll(subjects.map((s) => s.resource!));
      for (const [name, p] of pending) {
        const result = conditionResults.get(name)!;
        result.lastSeen = listed.get(keyOf(p.subject.id));
        const message = expectedMessage(expectedOf(p.case).message, plane.namespace);
        if (shows(expectedOf(p.case), message, result.lastSeen?.status?.conditions)) {
          result.shownAfterMs = Date.now() - appliedAt;
          pending.delete(name);
        }
      }
      if (pending.size > 0) await untilNextPoll();
    }

    // One window for every object the corpus made: its passes at the start and at the end. A
    // measurement over a fixed time, not a wait for something to happen.
    const managed = distinctObjects([...prepared.values()])
      .filter((o) => o.managed)
      .map((o) => o.id);
    passes.start = await readPasses(plane.temporal, managed);
    // Passes per minute need a minute: the one duration in this file that is the measurement.
    await sleep(WINDOW_SECONDS * 1000);
    passes.end = await readPasses(plane.temporal, managed);
    const listed = await listAll(subjects.map((s) => s.resource!));
    for (const p of batch) conditionResults.get(p.case.name)!.atWindowEnd = listed.get(keyOf(p.subject.id));

    if (process.env.CORPUS_VERBOSE === '1') {
      for (const p of batch) {
        const result = conditionResults.get(p.case.name)!;
        const shownAs = result.lastSeen?.status?.conditions?.find((c) => c.type === expectedOf(p.case).type);
        console.log(
          `${p.case.name}: after ${seconds(result.shownAfterMs ?? NaN)}, ${rateOf(p.subject.id)?.toFixed(1)} passes: ${JSON.stringify(shownAs)}`,
        );
      }
    }
    const shown = [...conditionResults.values()].flatMap((r) => (r.shownAfterMs === undefined ? [] : [r.shownAfterMs]));
    console.log(
      `condition cases: applied in ${seconds(appliedAt - batchStarted)}, ${shown.length} of ${batch.length} explained, ` +
        `the slowest ${seconds(Math.max(0, ...shown))} after; ` +
        `passes per ${WINDOW_SECONDS} s: at most ${Math.max(0, ...[...passRates().values()]).toFixed(1)} measured, ${PASS_BOUND} allowed`,
    );
  });

  /** Each object's passes per window, by object. */
  function passRates(): Map<ObjectId, number> {
    const rates = new Map<ObjectId, number>();
    for (const [id, start] of passes.start) {
      const end = passes.end.get(id);
      if (end) rates.set(id, passesPerWindow(start, end));
    }
    return rates;
  }

  const rateOf = (id: ObjectId) => [...passRates()].find(([counted]) => keyOf(counted) === keyOf(id))?.[1];

  for (const c of conditionCases) {
    it(`${c.name}: ${c.mistake}`, async () => {
      const p = preparedCase(c);
      const result = conditionResults.get(c.name)!;
      const expected = expectedOf(c);
      const message = expectedMessage(expected.message, plane.namespace);
      const want = `${expected.type}=${expected.status}${expected.reason ? ` (${expected.reason})` : ''} matching ${message}`;
      if (result.refused) throw new Error(`refused at admission, where ${want} was expected: ${result.refused}`);
      if (result.shownAfterMs === undefined) {
        const conditions = JSON.stringify(result.lastSeen?.status?.conditions ?? null);
        throw new Error(
          `no ${want} within ${CONDITION_DEADLINE_SECONDS} s; ${result.lastSeen ? `last conditions ${conditions}` : 'the object was never listed'}; ${await workflowSummary(p.subject.id)}`,
        );
      }
      expect(
        shows(expected, message, result.atWindowEnd?.status?.conditions),
        `${want} no longer shows ${WINDOW_SECONDS} s later: ${JSON.stringify(result.atWindowEnd?.status?.conditions ?? null)}`,
      ).toBe(true);
      const rate = rateOf(p.subject.id);
      expect(rate, `no workflow reconciles ${describePlaced(p.subject)}`).toBeDefined();
      expect(
        rate!,
        `${describePlaced(p.subject)} made ${rate} passes in ${WINDOW_SECONDS} s; ${await workflowSummary(p.subject.id)}`,
      ).toBeLessThanOrEqual(PASS_BOUND);
    });
  }

  it(`no object the corpus made, setup or subject, passes more than ${PASS_BOUND} times in ${WINDOW_SECONDS} s`, () => {
    const over = [...passRates()].filter(([, rate]) => rate > PASS_BOUND).map(([id, rate]) => `${describeId(id)}: ${rate}`);
    expect(over).toEqual([]);
  });
});

describe('deletion', () => {
  /** Every object the cases got stored; the unserved kinds of some mistakes never were. */
  const everything = () => distinctObjects([...prepared.values()]).filter((o) => o.resource !== undefined);

  /** Deletes the objects and waits until they are gone; says what is stuck, or how long it took. */
  async function deleteAndWait(objects: Placed[], what: string): Promise<{ took: number } | { stuck: string }> {
    const askedAt = Date.now();
    await deleteAll(objects.map((o) => o.manifest));
    const deadline = askedAt + DELETION_DEADLINE_SECONDS * 1000;
    for (;;) {
      const listed = await listAll(objects.map((o) => o.resource!));
      const left = objects.filter((o) => listed.has(keyOf(o.id)));
      if (left.length === 0) return { took: Date.now() - askedAt };
      if (Date.now() > deadline) {
        const stuck = left.map((o) => {
          const found = listed.get(keyOf(o.id))!;
          return `${describePlaced(o)} (finalizers ${JSON.stringify(found.metadata.finalizers ?? [])}, conditions ${JSON.stringify(found.status?.conditions ?? null)})`;
        });
        return { stuck: `${what}: ${left.length} not gone within ${DELETION_DEADLINE_SECONDS} s: ${stuck.join('; ')}` };
      }
      await untilNextPoll();
    }
  }

  it('deletes everything the corpus applied, each case’s deletion.first first, with nothing stuck', async () => {
    const first = [...prepared.values()].flatMap((p) => p.deleteFirst);
    const rest = everything().filter((o) => !first.some((f) => keyOf(f.id) === keyOf(o.id)));
    // Managed objects before what they use: ProviderConfigs, Secrets, clusters and namespaces
    // go last, as a user uninstalls, since nothing keeps a config in use from being deleted.
    // Each phase runs even when one before it left something stuck, so that what the later
    // checks find is only what is really left behind.
    const phases: [string, Placed[]][] = [
      ['deletion.first', first],
      ['managed objects', rest.filter((o) => o.managed)],
      ['setup objects', rest.filter((o) => !o.managed)],
    ];
    const stuck: string[] = [];
    const took: string[] = [];
    for (const [what, objects] of phases) {
      const outcome = await deleteAndWait(objects, what);
      if ('stuck' in outcome) stuck.push(outcome.stuck);
      else took.push(`${what} (${objects.length}) in ${seconds(outcome.took)}`);
    }
    console.log(`deleted: ${took.join(', ') || 'nothing'}`);
    expect(stuck).toEqual([]);
  });

  it('leaves nothing at EC2', async () => {
    const namespaces = new Set(
      everything().flatMap((o) => (o.managed && o.id.group.endsWith('aws.chronoplane.io') ? [o.id.namespace] : [])),
    );
    namespaces.add(plane.namespace);
    for (const namespace of namespaces) {
      // leftovers() reads only the namespace and the EC2 client of the plane it is given.
      expect(await leftovers({ namespace, ec2: plane.ec2 } as ControlPlane), `EC2 resources of namespace ${namespace}`).toEqual({});
    }
  });

  it(`leaves nothing in ${REMOTE_CLUSTER_NAMES.join(' or ')}`, async () => {
    const names = cases.map((c) => c.name);
    for (const remote of REMOTE_CLUSTER_NAMES) {
      const kubectl = (args: string[]) => remoteKubectl(remote, args);
      await expectEventuallyEmpty(() => namespaceContents(kubectl, TARGET_NAMESPACE), `namespace ${TARGET_NAMESPACE} of ${remote}`);
      expect(await clusterScopedNamed(kubectl, names), `cluster-scoped objects named after a case in ${remote}`).toEqual([]);
    }
  });

  it('leaves nothing in the corpus namespace, nor anything cluster-scoped named after a case', async () => {
    await expectEventuallyEmpty(() => namespaceContents(localKubectl, plane.namespace), `namespace ${plane.namespace}`);
    expect(
      await clusterScopedNamed(
        localKubectl,
        cases.map((c) => c.name),
      ),
    ).toEqual([]);
  });
});

/** Owner-reference garbage collection is asynchronous: what it removes may take a moment. */
async function expectEventuallyEmpty(list: () => Promise<string[]>, where: string): Promise<void> {
  const deadline = Date.now() + GARBAGE_COLLECTION_SECONDS * 1000;
  let left = await list();
  while (left.length > 0 && Date.now() < deadline) {
    await untilNextPoll();
    left = await list();
  }
  expect(left, `left in ${where}`).toEqual([]);
}
