// Shared by this kind's unit tests: seed 003's wordpress-demo application, its templates, and
// its resources as the API server would hold them.
import { newChild, type Application, type Child, type OwnerReference } from './children';
import type { ResourceTemplate } from './schema';

export const app: Application = {
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  namespace: 'complex',
  name: 'wordpress-demo',
  uid: 'app-uid',
};

type TemplateOptions = Partial<Omit<ResourceTemplate['metadata'], 'name'>> & { secrets?: { name: string }[] };

export function template(name: string, object: Record<string, unknown>, options: TemplateOptions = {}): ResourceTemplate {
  const { secrets, ...metadata } = options;
  const spec = { template: object, ...(secrets ? { secrets } : {}) } as ResourceTemplate['spec'];
  return { metadata: { name, labels: { app: 'wordpress-demo' }, ...metadata }, spec };
}

export const namespaceTemplate = template('wordpress-demo-namespace', {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'wordpress' },
});
export const deploymentTemplate = template(
  'wordpress-demo-deployment',
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace: 'wordpress', name: 'wordpress' },
    spec: { selector: { matchLabels: { app: 'wordpress' } } },
  },
  { secrets: [{ name: 'sql' }] },
);
export const serviceTemplate = template('wordpress-demo-service', {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace: 'wordpress', name: 'wordpress' },
  spec: { ports: [{ port: 80 }] },
});
export const seedTemplates = [namespaceTemplate, deploymentTemplate, serviceTemplate];

export interface ChildOptions {
  state?: string;
  generation?: number;
  observedGeneration?: number;
  /** Its controller; null for none. The application by default. */
  controller?: OwnerReference | null;
  deleting?: boolean;
}

/** The template's resource as the API server holds it once made (and, with a state, reconciled). */
export function childOf(t: ResourceTemplate, options: ChildOptions = {}): Child {
  const made = newChild(app, t);
  const generation = options.generation ?? 1;
  const controller =
    options.controller === undefined ? made.metadata.ownerReferences : options.controller ? [options.controller] : undefined;
  return {
    ...made,
    metadata: {
      ...made.metadata,
      uid: `uid-${t.metadata.name}`,
      resourceVersion: '7',
      generation,
      ownerReferences: controller,
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    ...(options.state ? { status: { state: options.state, observedGeneration: options.observedGeneration ?? generation } } : {}),
  };
}

export const otherApplication: OwnerReference = {
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  name: 'first-owner',
  uid: 'other-uid',
  controller: true,
};
