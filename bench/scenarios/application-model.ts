// The application scenario's objects and bookkeeping (bench/scenarios/application.ts), pure: the
// KubernetesApplication of N templates, the change its update makes, and the trackers that turn
// watch events and polls into times per resource.
//
// Templates go round-robin over ConfigMap, Service (ClusterIP, one port) and Deployment (one
// replica of a pause image; the target has no nodes, so no pod ever runs: Submitted means created
// in the target). All land in the target's `default` namespace; with a Namespace template, that
// one comes first and the others live in the Namespace it makes, so the application's ordering
// waves are part of what is measured. Every templated object carries the run's label and a
// revision label; the update raises the revision of every template at once (and a ConfigMap's
// data value with it), and an object in the target shows the change once its label does.
import { apiVersionOf } from '#core/managed-kind';
import { kubernetesApplicationApi } from '#providers/kubernetes/workload/application/schema';

/** On the application, its resources and every object in the target: the run they belong to. */
export const RUN_LABEL = 'chronoplane.dev/bench-run';
/** On every templated object: the revision of the templates it was made from (1, then 2 after the update). */
export const REVISION_LABEL = 'chronoplane.dev/bench-revision';
/** The Deployments' and Services' selector: one per template. */
const APP_LABEL = 'chronoplane.dev/bench-app';
const IMAGE = 'registry.k8s.io/pause:3.10';

export const TEMPLATE_KINDS = ['ConfigMap', 'Service', 'Deployment'] as const;
export type TargetKind = 'Namespace' | (typeof TEMPLATE_KINDS)[number];

export interface ApplicationShape {
  /** The KubernetesApplication's name, in `namespace` of the control cluster. */
  name: string;
  namespace: string;
  run: string;
  /** How many templates, a Namespace template included. */
  templates: number;
  /** Of the template names (and of the objects they make): `tmpl`, or `warm-up`. */
  prefix: string;
  clusterSelector: Record<string, string>;
  /** A Namespace of this name is the first template and holds the others; absent, all go to `default`. */
  namespaceTemplate?: string;
}

/** One object a template makes in the target. */
interface TargetRef {
  kind: TargetKind;
  /** Absent for a Namespace. */
  namespace?: string;
  name: string;
}

export const targetNamespaceOf = (shape: Pick<ApplicationShape, 'namespaceTemplate'>): string => shape.namespaceTemplate ?? 'default';

export const keyOfTarget = (ref: Pick<TargetRef, 'kind' | 'name'>): string => `${ref.kind}/${ref.name}`;

/** The kind of each template, in order. */
export function templateKinds(shape: Pick<ApplicationShape, 'templates' | 'namespaceTemplate'>): TargetKind[] {
  const first: TargetKind[] = shape.namespaceTemplate === undefined ? [] : ['Namespace'];
  const rest = Array.from({ length: Math.max(0, shape.templates - first.length) }, (_, i) => TEMPLATE_KINDS[i % TEMPLATE_KINDS.length]!);
  return [...first, ...rest].slice(0, shape.templates);
}

/**
 * The object each template makes, in template order; the template (the KubernetesApplicationResource)
 * has the same name, `<prefix>-007-service`, except the Namespace, which is named by the shape.
 */
export function templateTargets(shape: ApplicationShape): TargetRef[] {
  return templateKinds(shape).map((kind, index) =>
    kind === 'Namespace'
      ? { kind, name: shape.namespaceTemplate! }
      : { kind, namespace: targetNamespaceOf(shape), name: templateName(shape.prefix, index, kind) },
  );
}

const templateName = (prefix: string, index: number, kind: TargetKind): string =>
  `${prefix}-${String(index).padStart(3, '0')}-${kind.toLowerCase()}`;

/** How many objects of each kind the templates make. */
export function kindCounts(shape: Pick<ApplicationShape, 'templates' | 'namespaceTemplate'>): Partial<Record<TargetKind, number>> {
  const counts: Partial<Record<TargetKind, number>> = {};
  for (const kind of templateKinds(shape)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The resource templates at a revision: the update sends all of them again at revision 2. */
export function benchTemplates(shape: ApplicationShape, revision: number) {
  const kinds = templateKinds(shape);
  return templateTargets(shape).map((target, index) => ({
    metadata: { name: templateName(shape.prefix, index, kinds[index]!), labels: { [RUN_LABEL]: shape.run } },
    spec: { template: templatedObject(target, index, shape.run, revision) },
  }));
}

/** The KubernetesApplication, created as it is at revision 1. */
export function benchApplication(shape: ApplicationShape, revision = 1) {
  return {
    apiVersion: apiVersionOf(kubernetesApplicationApi),
    kind: kubernetesApplicationApi.kind,
    metadata: { name: shape.name, namespace: shape.namespace, labels: { [RUN_LABEL]: shape.run } },
    spec: {
      clusterSelector: { matchLabels: shape.clusterSelector },
      resourceTemplates: benchTemplates(shape, revision),
    },
  };
}

function templatedObject(target: TargetRef, index: number, run: string, revision: number): Record<string, unknown> {
  const labels = { [RUN_LABEL]: run, [REVISION_LABEL]: String(revision) };
  const metadata = { name: target.name, ...(target.namespace === undefined ? {} : { namespace: target.namespace }), labels };
  const selector = { [APP_LABEL]: target.name };
  switch (target.kind) {
    case 'Namespace':
      return { apiVersion: 'v1', kind: 'Namespace', metadata };
    case 'ConfigMap':
      return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { index: String(index), revision: String(revision) } };
    case 'Service':
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata,
        spec: { type: 'ClusterIP', selector, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }] },
      };
    case 'Deployment':
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: {
          replicas: 1,
          selector: { matchLabels: selector },
          template: { metadata: { labels: selector }, spec: { containers: [{ name: 'app', image: IMAGE }] } },
        },
      };
  }
}

/** An object listed in the target, as far as the scenario looks at it. */
export interface TargetItem {
  kind: TargetKind;
  name: string;
  labels?: Record<string, string>;
}

export const showsRevision = (item: TargetItem, revision: number): boolean => item.labels?.[REVISION_LABEL] === String(revision);

/** What the scenario reads of a KubernetesApplication or a KubernetesApplicationResource. */
export interface Observed {
  metadata?: { name?: string; generation?: number; deletionTimestamp?: string | Date };
  status?: {
    state?: string;
    observedGeneration?: number;
    desiredResources?: number;
    submittedResources?: number;
  };
}

/** Reconciled at `generation` (or later) and stating all `count` resources Submitted. */
export function applicationSubmitted(app: Observed | undefined, count: number, generation: number): boolean {
  const status = app?.status;
  return (
    status?.state === 'Submitted' &&
    status.desiredResources === count &&
    status.submittedResources === count &&
    (status.observedGeneration ?? 0) >= generation
  );
}

/** Submitted for the spec it has now, as the application itself counts it (children.ts isSubmitted). */
function resourceSubmitted(resource: Observed): boolean {
  const generation = resource.metadata?.generation;
  const observed = resource.status?.observedGeneration;
  return resource.status?.state === 'Submitted' && (generation === undefined || observed === undefined || observed >= generation);
}

/** The first time each key was marked (ms since the epoch); later marks do not move it. */
export class FirstTimes {
  readonly at = new Map<string, number>();

  mark(key: string, now: number): void {
    if (!this.at.has(key)) this.at.set(key, now);
  }

  get size(): number {
    return this.at.size;
  }

  /** Seconds from `startedAt` to each mark. */
  secondsSince(startedAt: number): number[] {
    return [...this.at.values()].map((at) => (at - startedAt) / 1000);
  }
}

/**
 * The application's states as polled, each at the first poll that showed it, from the first
 * poll that had reconciled `generation` on: a state left from before the change is not counted.
 */
export class StateTimeline {
  private readonly states = new FirstTimes();

  constructor(
    private readonly startedAt: number,
    private readonly generation: number,
  ) {}

  observe(app: Observed | undefined, now: number): void {
    const state = app?.status?.state;
    if (state !== undefined && (app?.status?.observedGeneration ?? 0) >= this.generation) this.states.mark(state, now);
  }

  /** `{ Scheduled: 0.4, PartiallySubmitted: 1.2, Submitted: 5.3 }`, in the order first seen. */
  seconds(): Record<string, number> {
    return Object.fromEntries([...this.states.at].map(([state, at]) => [state, round3((at - this.startedAt) / 1000)]));
  }
}

/**
 * From the watch of the run's KubernetesApplicationResources: when each was first seen, and when
 * it was first Submitted at each generation of its spec.
 */
export class ResourceTracker {
  readonly seen = new FirstTimes();
  /** By resource name, then generation (0 when the object has none). */
  private readonly submitted = new Map<string, Map<number, number>>();

  observe(resource: Observed, now: number): void {
    const name = resource.metadata?.name;
    if (!name) return;
    this.seen.mark(name, now);
    if (!resourceSubmitted(resource)) return;
    const generations = this.submitted.get(name) ?? new Map<number, number>();
    const generation = resource.metadata?.generation ?? 0;
    if (!generations.has(generation)) generations.set(generation, now);
    this.submitted.set(name, generations);
  }

  /** The highest generation each resource has been Submitted at so far. */
  submittedGenerations(): Map<string, number> {
    return new Map([...this.submitted].map(([name, generations]) => [name, Math.max(...generations.keys())]));
  }

  /**
   * When each resource was first Submitted at a generation above the one `after` gives for it
   * (any generation for a resource `after` does not name): by resource name, ms since the epoch.
   */
  submittedAfter(after: ReadonlyMap<string, number> = new Map()): Map<string, number> {
    const times = new Map<string, number>();
    for (const [name, generations] of this.submitted) {
      const floor = after.get(name);
      const at = [...generations].filter(([generation]) => floor === undefined || generation > floor).map(([, time]) => time);
      if (at.length > 0) times.set(name, Math.min(...at));
    }
    return times;
  }
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
