// What a template makes, when a resource is as its template says, and whose it is.
import { describe, expect, it } from 'vitest';
import { TEMPLATE_KEYS, conflictMessage, differences, isPredecessor, isSubmitted, newChild, sameIdentity, updatedChild } from './children';
import { app, childOf, deploymentTemplate, otherApplication, serviceTemplate, template } from '#test/unit/fixtures/workload-application';

describe('newChild', () => {
  it('is the template’s resource in the application’s namespace, controlled by it, recording the keys it set', () => {
    const t = template(
      'wordpress-demo-service',
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'wordpress' } },
      { namespace: 'ignored', annotations: { note: 'x' } },
    );
    expect(newChild(app, t)).toEqual({
      apiVersion: 'workload.crossplane.io/v1alpha1',
      kind: 'KubernetesApplicationResource',
      metadata: {
        name: 'wordpress-demo-service',
        namespace: 'complex',
        labels: { app: 'wordpress-demo' },
        annotations: { note: 'x', [TEMPLATE_KEYS]: '{"labels":["app"],"annotations":["note"]}' },
        ownerReferences: [
          {
            apiVersion: 'workload.crossplane.io/v1alpha1',
            kind: 'KubernetesApplication',
            name: 'wordpress-demo',
            uid: 'app-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { template: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'wordpress' } } },
    });
  });

  it('never lets a template say which keys it set', () => {
    const t = template('x', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } }, { annotations: { [TEMPLATE_KEYS]: 'forged' } });
    expect(newChild(app, t).metadata.annotations).toEqual({ [TEMPLATE_KEYS]: '{"labels":["app"],"annotations":[]}' });
    expect(differences(childOf(t), t)).toEqual([]);
  });
});

describe('differences and updatedChild', () => {
  it('finds nothing in a resource as its template made it, whatever others added', () => {
    const child = childOf(deploymentTemplate, { state: 'Submitted' });
    child.metadata.annotations = { ...child.metadata.annotations, 'crossplane.io/external-name': 'wordpress' };
    child.metadata.labels = { ...child.metadata.labels, team: 'blue' };
    child.metadata.finalizers = ['finalizer.managedresource.crossplane.io'];
    expect(differences(child, deploymentTemplate)).toEqual([]);
  });

  it('finds a changed template, secrets, label or annotation, and an empty list is no change', () => {
    const child = childOf(deploymentTemplate);
    const changed = (edit: (t: typeof deploymentTemplate) => void) => {
      const t = structuredClone(deploymentTemplate);
      edit(t);
      return differences(child, t);
    };
    expect(changed((t) => ((t.spec.template.spec as { replicas?: number }).replicas = 2))).toEqual(['spec']);
    expect(changed((t) => (t.spec.secrets = []))).toEqual(['spec']);
    expect(changed((t) => (t.metadata.labels = { app: 'other' }))).toEqual(['labels']);
    expect(changed((t) => (t.metadata.annotations = { note: 'new' }))).toEqual(['annotations']);
    // A label dropped from the template: the resource still has it, as the template set it.
    expect(changed((t) => delete t.metadata.labels)).toEqual(['labels', 'annotations']);
    expect(differences(childOf(serviceTemplate), { ...serviceTemplate, spec: { ...serviceTemplate.spec, secrets: [] } })).toEqual([]);
  });

  it('brings a resource in line: the template’s spec whole, its keys replaced, everyone else’s kept, the version kept', () => {
    const child = childOf(deploymentTemplate, { state: 'Submitted' });
    child.metadata.labels = { app: 'wordpress-demo', team: 'blue' };
    child.metadata.annotations = { ...child.metadata.annotations, 'crossplane.io/external-name': 'wordpress' };
    const t = structuredClone(deploymentTemplate);
    t.metadata.labels = { tier: 'web' };
    t.metadata.annotations = { note: 'x' };
    delete t.spec.secrets;

    const updated = updatedChild(child, t);
    expect(updated.metadata.labels).toEqual({ team: 'blue', tier: 'web' });
    expect(updated.metadata.annotations).toEqual({
      'crossplane.io/external-name': 'wordpress',
      note: 'x',
      [TEMPLATE_KEYS]: '{"labels":["tier"],"annotations":["note"]}',
    });
    expect(updated.spec).toEqual({ template: deploymentTemplate.spec.template });
    expect(updated.metadata).toMatchObject({
      uid: child.metadata.uid,
      resourceVersion: '7',
      ownerReferences: child.metadata.ownerReferences,
    });
    expect(updated).not.toHaveProperty('status');
    expect(differences({ ...updated, status: child.status }, t)).toEqual([]);
  });

  it('drops nothing it cannot tell was its own (a record edited by hand)', () => {
    const child = childOf(deploymentTemplate);
    child.metadata.annotations = { [TEMPLATE_KEYS]: 'not json' };
    expect(updatedChild(child, template('x', {}, { labels: {} })).metadata.labels).toEqual({ app: 'wordpress-demo' });
  });
});

describe('sameIdentity', () => {
  it('holds while apiVersion, kind, name and namespace are the same', () => {
    const child = childOf(serviceTemplate);
    const edited = (object: Record<string, unknown>) => ({ ...serviceTemplate, spec: { template: object } }) as typeof serviceTemplate;
    const object = serviceTemplate.spec.template;
    expect(sameIdentity(child, edited({ ...object, spec: { ports: [{ port: 8080 }] } }))).toBe(true);
    expect(sameIdentity(child, edited({ ...object, kind: 'ConfigMap' }))).toBe(false);
    expect(sameIdentity(child, edited({ ...object, apiVersion: 'v2' }))).toBe(false);
    expect(sameIdentity(child, edited({ ...object, metadata: { name: 'other', namespace: 'wordpress' } }))).toBe(false);
    expect(sameIdentity(child, edited({ ...object, metadata: { name: 'wordpress' } }))).toBe(false);
  });
});

describe('isSubmitted', () => {
  it('is the resource’s own word, for the spec it has now', () => {
    expect(isSubmitted(childOf(serviceTemplate, { state: 'Submitted' }))).toBe(true);
    expect(isSubmitted(childOf(serviceTemplate, { state: 'Submitted', generation: 2, observedGeneration: 1 }))).toBe(false);
    expect(isSubmitted(childOf(serviceTemplate, { state: 'Failed' }))).toBe(false);
    expect(isSubmitted(childOf(serviceTemplate))).toBe(false);
  });
});

describe('ownership', () => {
  it('names the other owner, or says nobody controls it, and asks for a rename', () => {
    expect(conflictMessage(childOf(serviceTemplate, { controller: otherApplication }), app)).toBe(
      'KubernetesApplicationResource complex/wordpress-demo-service already exists and is controlled by KubernetesApplication first-owner; ' +
        'an application never takes over another\u2019s resource: rename the template (resourceTemplates[].metadata.name)',
    );
    expect(conflictMessage(childOf(serviceTemplate, { controller: null }), app)).toMatch(
      /^KubernetesApplicationResource complex\/wordpress-demo-service already exists and is controlled by nothing; .*never adopts/,
    );
  });

  it('tells an earlier application of the same name from another one', () => {
    const earlier = { ...otherApplication, name: app.name };
    expect(isPredecessor(earlier, app)).toBe(true);
    expect(isPredecessor(otherApplication, app)).toBe(false);
    expect(isPredecessor({ ...earlier, uid: app.uid }, app)).toBe(false);
    expect(isPredecessor({ ...earlier, kind: 'Deployment', apiVersion: 'apps/v1' }, app)).toBe(false);
    expect(isPredecessor(undefined, app)).toBe(false);
  });
});
