// An application's children, its KubernetesApplicationResources: what a template makes, whether
// a child still is what its template says, and whose a child is. A child is the application's
// only through its controller reference (seed 003: an application never adopts a resource, nor
// touches one another controls). Pure.
import equal from 'fast-deep-equal';
import { apiVersionOf } from '#core/managed-kind';
import { groupOf } from '#runtime/references/dependencies';
import { KubernetesApplicationResourceSpec, kubernetesApplicationResourceApi } from '../resource/schema';
import type { ResourceTemplate } from './schema';

export const CHILD_API_VERSION = apiVersionOf(kubernetesApplicationResourceApi);
export const CHILD_KIND = kubernetesApplicationResourceApi.kind;

/**
 * On a child: the label and annotation keys its template set, so that a key later dropped from
 * the template is dropped from the child too, while keys others set (the engine's
 * crossplane.io/external-name, a user's label) stay.
 */
export const TEMPLATE_KEYS = 'kubernetesapplication.workload.crossplane.io/template-keys';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The application, as its children's controller reference names it. */
export interface Application {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** A KubernetesApplicationResource as the control cluster holds it (or as we send it). */
export interface Child {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    deletionTimestamp?: string;
    [field: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: { state?: string; observedGeneration?: number; [field: string]: unknown };
}

export const controllerOf = (child: Child): OwnerReference | undefined => child.metadata.ownerReferences?.find((o) => o.controller);
export const isControlledBy = (child: Child, app: Pick<Application, 'uid'>): boolean => controllerOf(child)?.uid === app.uid;
export const isDeleting = (child: Child): boolean => child.metadata.deletionTimestamp !== undefined;

/** Submitted, as the resource's own workflow says, for the spec it has now (not an earlier one). */
export function isSubmitted(child: Child): boolean {
  const { generation } = child.metadata;
  const observed = child.status?.observedGeneration;
  return child.status?.state === 'Submitted' && (generation === undefined || observed === undefined || observed >= generation);
}

/** The body of a create: the template's child, controlled by the application. */
export function newChild(app: Application, template: ResourceTemplate): Child {
  const { labels } = template.metadata;
  return {
    apiVersion: CHILD_API_VERSION,
    kind: CHILD_KIND,
    metadata: {
      name: template.metadata.name,
      namespace: app.namespace,
      ...(nonEmpty(labels) ? { labels } : {}),
      annotations: { ...annotationsOf(template), [TEMPLATE_KEYS]: recordOf(template) },
      ownerReferences: [
        { apiVersion: app.apiVersion, kind: app.kind, name: app.name, uid: app.uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: { ...template.spec },
  };
}

/**
 * The body of a replace: `child` as its template says now. Its spec is the template's, whole;
 * its labels and annotations lose the keys the template set before and gain the template's,
 * and keep everyone else's. Its resourceVersion stays, so a concurrent change fails the write.
 */
export function updatedChild(child: Child, template: ResourceTemplate): Child {
  const before = recordedKeys(child) ?? { labels: [], annotations: [] };
  const labels = { ...without(child.metadata.labels, before.labels), ...template.metadata.labels };
  const annotations = {
    ...without(child.metadata.annotations, before.annotations),
    ...annotationsOf(template),
    [TEMPLATE_KEYS]: recordOf(template),
  };
  const { status: _status, ...rest } = child;
  const { labels: _labels, ...metadata } = child.metadata;
  return {
    ...rest,
    apiVersion: CHILD_API_VERSION,
    kind: CHILD_KIND,
    metadata: { ...metadata, ...(nonEmpty(labels) ? { labels } : {}), annotations },
    spec: { ...template.spec },
  };
}

/** What differs between a child and its template: [] when it is as the template says. */
export function differences(child: Child, template: ResourceTemplate): string[] {
  const found: string[] = [];
  const specFields = Object.keys(KubernetesApplicationResourceSpec.properties);
  const spec = template.spec as unknown as Record<string, unknown>;
  if (specFields.some((field) => !sameValue(child.spec?.[field], spec[field]))) found.push('spec');
  const before = recordedKeys(child);
  const { labels, annotations } = child.metadata;
  if (!includes(labels, template.metadata.labels) || keeps(labels, before?.labels, template.metadata.labels)) found.push('labels');
  const ours = annotationsOf(template);
  // The record itself too: it must name exactly the keys the template sets now.
  const recordChanged = annotations?.[TEMPLATE_KEYS] !== recordOf(template);
  if (!includes(annotations, ours) || keeps(annotations, before?.annotations, ours) || recordChanged) found.push('annotations');
  return found;
}

/**
 * Whether the child templates the same object as the template: apiVersion, kind, name and
 * namespace, the fields a resource refuses to change (another object would be orphaned).
 */
export function sameIdentity(child: Child, template: ResourceTemplate): boolean {
  const identity = (t: unknown) => {
    const { apiVersion, kind, metadata } = (t ?? {}) as {
      apiVersion?: string;
      kind?: string;
      metadata?: { name?: string; namespace?: string };
    };
    return [apiVersion, kind, metadata?.name, metadata?.namespace ?? null];
  };
  return equal(identity(child.spec?.template), identity(template.spec.template));
}

/** A controller reference to an earlier application of the same name: one being (or just) deleted. */
export function isPredecessor(controller: OwnerReference | undefined, app: Application): boolean {
  return (
    controller !== undefined &&
    controller.uid !== app.uid &&
    controller.kind === app.kind &&
    controller.name === app.name &&
    groupOf(controller.apiVersion) === groupOf(app.apiVersion)
  );
}

/** Why the application refuses the child of this name: it is someone else's, or nobody's. */
export function conflictMessage(child: Child, app: Application): string {
  const controller = controllerOf(child);
  const what = `${CHILD_KIND} ${app.namespace}/${child.metadata.name}`;
  const rename = 'rename the template (resourceTemplates[].metadata.name)';
  if (!controller) {
    return `${what} already exists and is controlled by nothing; an application never adopts a resource it did not create: ${rename} or delete that resource`;
  }
  return `${what} already exists and is controlled by ${controller.kind} ${controller.name}; an application never takes over another\u2019s resource: ${rename}`;
}

interface TemplateKeys {
  labels: string[];
  annotations: string[];
}

/** The template's annotations, but ours: a template cannot say which keys it set. */
const annotationsOf = (template: ResourceTemplate): Record<string, string> => without(template.metadata.annotations, [TEMPLATE_KEYS]);

const recordOf = (template: ResourceTemplate): string =>
  JSON.stringify({
    labels: Object.keys(template.metadata.labels ?? {}).sort(),
    annotations: Object.keys(annotationsOf(template)).sort(),
  });

function recordedKeys(child: Child): TemplateKeys | undefined {
  const recorded = child.metadata.annotations?.[TEMPLATE_KEYS];
  if (recorded === undefined) return undefined;
  try {
    const parsed = JSON.parse(recorded) as Partial<TemplateKeys>;
    return { labels: stringsOf(parsed.labels), annotations: stringsOf(parsed.annotations) };
  } catch {
    return undefined; // edited by hand: nothing is known to be ours, so nothing is dropped
  }
}

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const without = (map: Record<string, string> | undefined, keys: readonly string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).filter(([key]) => !keys.includes(key)));

const includes = (map: Record<string, string> | undefined, wanted: Record<string, string> | undefined): boolean =>
  Object.entries(wanted ?? {}).every(([key, value]) => map?.[key] === value);

/** Whether `map` still has a key the template set before (`recorded`) and no longer sets. */
const keeps = (map: Record<string, string> | undefined, recorded: readonly string[] = [], wanted: Record<string, string> = {}): boolean =>
  recorded.some((key) => !Object.hasOwn(wanted, key) && map !== undefined && Object.hasOwn(map, key));

const nonEmpty = (map: Record<string, string> | undefined): map is Record<string, string> => Object.keys(map ?? {}).length > 0;

/** Equal as the API server stores them: undefined fields dropped, and an empty list the same as none. */
const sameValue = (a: unknown, b: unknown): boolean => equal(stored(a), stored(b));
const stored = (value: unknown): unknown =>
  value === undefined || (Array.isArray(value) && value.length === 0) ? undefined : JSON.parse(JSON.stringify(value));
