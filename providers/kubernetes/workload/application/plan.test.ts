// What an application does about its resources: waves in, reverse waves out, conflicts refused,
// and nothing to do (up to date) while it waits for something that will wake it.
import { describe, expect, it } from 'vitest';
import type { Child } from './children';
import { deletionOrder, describePlan, hasWork, planChildren } from './plan';
import {
  app,
  childOf,
  deploymentTemplate,
  namespaceTemplate,
  otherApplication,
  seedTemplates,
  serviceTemplate,
  template,
} from '#test/unit/fixtures/workload-application';

const names = (children: readonly Child[]) => children.map((c) => c.metadata.name);
const submitted = { state: 'Submitted' };

describe('planChildren: submitting in waves', () => {
  it('creates only the Namespace first, and says what waits for it', () => {
    const plan = planChildren(app, seedTemplates, []);
    expect(names(plan.create)).toEqual(['wordpress-demo-namespace']);
    expect(plan.waiting).toEqual([
      'create wordpress-demo-deployment once wordpress-demo-namespace is Submitted',
      'create wordpress-demo-service once wordpress-demo-namespace is Submitted',
    ]);
    expect(hasWork(plan)).toBe(true);
    expect(plan).toMatchObject({ desired: 3, submitted: 0, failed: [] });
  });

  it('has nothing to do while the Namespace is not Submitted yet: it is woken when it is', () => {
    const plan = planChildren(app, seedTemplates, [childOf(namespaceTemplate, { state: 'Scheduled' })]);
    expect(hasWork(plan)).toBe(false);
    expect(plan.waiting).toHaveLength(2);
    expect(plan.unsubmitted).toEqual(['wordpress-demo-namespace', 'wordpress-demo-deployment', 'wordpress-demo-service']);
  });

  it('creates the rest once the Namespace is Submitted', () => {
    const plan = planChildren(app, seedTemplates, [childOf(namespaceTemplate, submitted)]);
    expect(names(plan.create)).toEqual(['wordpress-demo-deployment', 'wordpress-demo-service']);
    expect(plan).toMatchObject({ submitted: 1, waiting: [] });
  });

  it('creates everything at once when nothing needs to go first', () => {
    expect(names(planChildren(app, [serviceTemplate, deploymentTemplate], []).create)).toEqual([
      'wordpress-demo-service',
      'wordpress-demo-deployment',
    ]);
  });

  it('is done when every resource is Submitted as its template says', () => {
    const plan = planChildren(
      app,
      seedTemplates,
      seedTemplates.map((t) => childOf(t, submitted)),
    );
    expect(hasWork(plan)).toBe(false);
    expect(plan).toMatchObject({ desired: 3, submitted: 3, waiting: [], unsubmitted: [] });
    expect(describePlan(plan)).toBe('');
  });

  it('updates a changed template’s resource, which counts as submitted again only once its resource says so', () => {
    const changed = template('wordpress-demo-service', { ...serviceTemplate.spec.template, spec: { ports: [{ port: 8080 }] } });
    const plan = planChildren(
      app,
      [namespaceTemplate, deploymentTemplate, changed],
      seedTemplates.map((t) => childOf(t, submitted)),
    );
    expect(names(plan.update)).toEqual(['wordpress-demo-service']);
    expect(plan.update[0]!.spec).toEqual(changed.spec);
    expect(plan.update[0]!.metadata.resourceVersion).toBe('7');
    expect(plan.submitted).toBe(2);
    expect(describePlan(plan)).toBe('update wordpress-demo-service');
  });

  it('holds back updates of the rest while the first wave is not Submitted', () => {
    const changed = template('wordpress-demo-service', { ...serviceTemplate.spec.template, spec: { ports: [{ port: 8080 }] } });
    const children = [childOf(namespaceTemplate, { state: 'Failed' }), childOf(serviceTemplate, submitted)];
    const plan = planChildren(app, [namespaceTemplate, changed], children);
    expect(hasWork(plan)).toBe(false);
    expect(plan.waiting).toEqual(['update wordpress-demo-service (spec) once wordpress-demo-namespace is Submitted']);
    expect(plan.failed).toEqual(['wordpress-demo-namespace']);
  });
});

describe('planChildren: what is not its own', () => {
  it('refuses a name another application controls, or nobody does, and goes on with the rest', () => {
    const children = [childOf(namespaceTemplate, submitted), childOf(serviceTemplate, { controller: otherApplication })];
    const plan = planChildren(app, seedTemplates, children);
    expect(plan.conflicts).toEqual([
      expect.stringMatching(/wordpress-demo-service already exists and is controlled by KubernetesApplication first-owner/),
    ]);
    expect(names(plan.create)).toEqual(['wordpress-demo-deployment']);
    expect(hasWork(plan)).toBe(true);

    const orphaned = planChildren(app, [serviceTemplate], [childOf(serviceTemplate, { controller: null })]);
    expect(orphaned.conflicts).toEqual([expect.stringMatching(/controlled by nothing/)]);
    expect(orphaned.update).toEqual([]);
  });

  it('waits for the resource of an earlier application of the same name to go, rather than refuse it', () => {
    const earlier = { ...otherApplication, name: app.name };
    const plan = planChildren(app, [serviceTemplate], [childOf(serviceTemplate, { controller: earlier })]);
    expect(hasWork(plan)).toBe(false);
    expect(plan.waiting).toEqual(['create wordpress-demo-service once the earlier one of that name is deleted']);
  });

  it('never deletes a resource it does not control, template or not', () => {
    const plan = planChildren(
      app,
      [],
      [childOf(serviceTemplate, { controller: otherApplication }), childOf(deploymentTemplate, { controller: null })],
    );
    expect(hasWork(plan)).toBe(false);
  });
});

describe('planChildren: removing and replacing', () => {
  it('deletes a removed template’s resource, the Namespace only once the others are gone', () => {
    const all = seedTemplates.map((t) => childOf(t, submitted));
    const first = planChildren(app, [], all);
    expect(names(first.delete)).toEqual(['wordpress-demo-deployment', 'wordpress-demo-service']);
    expect(first.waiting).toEqual(['delete wordpress-demo-namespace once wordpress-demo-deployment, wordpress-demo-service are gone']);

    const deleting = [childOf(namespaceTemplate, submitted), childOf(serviceTemplate, { ...submitted, deleting: true })];
    expect(hasWork(planChildren(app, [], deleting))).toBe(false);
    expect(names(planChildren(app, [], [childOf(namespaceTemplate, submitted)]).delete)).toEqual(['wordpress-demo-namespace']);
  });

  it('waits for a resource being deleted before it makes it again', () => {
    const plan = planChildren(app, [serviceTemplate], [childOf(serviceTemplate, { ...submitted, deleting: true })]);
    expect(hasWork(plan)).toBe(false);
    expect(plan.waiting).toEqual(['create wordpress-demo-service again once it is deleted']);
    expect(plan.submitted).toBe(0);
  });

  it('replaces a resource whose template now names another object: it cannot be changed into it', () => {
    const renamed = template('wordpress-demo-service', {
      ...serviceTemplate.spec.template,
      metadata: { name: 'blog', namespace: 'wordpress' },
    });
    const plan = planChildren(app, [renamed], [childOf(serviceTemplate, submitted)]);
    expect(names(plan.delete)).toEqual(['wordpress-demo-service']);
    expect(plan.update).toEqual([]);
    expect(describePlan(plan)).toBe(
      'delete wordpress-demo-service; then create wordpress-demo-service again once it is deleted: its template names another object',
    );
  });
});

describe('deletionOrder', () => {
  it('deletes the other kinds first, then Namespaces and CRDs, leaving those already being deleted alone', () => {
    const all = seedTemplates.map((t) => childOf(t, submitted));
    expect(names(deletionOrder(all).now)).toEqual(['wordpress-demo-deployment', 'wordpress-demo-service']);
    expect(names(deletionOrder(all).later)).toEqual(['wordpress-demo-namespace']);
    const oneLeft = [childOf(namespaceTemplate), childOf(serviceTemplate, { deleting: true })];
    expect(deletionOrder(oneLeft)).toMatchObject({ now: [], later: [childOf(namespaceTemplate)] });
    expect(names(deletionOrder([childOf(namespaceTemplate)]).now)).toEqual(['wordpress-demo-namespace']);
    expect(deletionOrder([])).toEqual({ now: [], later: [], first: [] });
  });
});
