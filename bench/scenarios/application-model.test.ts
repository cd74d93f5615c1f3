import { describe, expect, it } from 'vitest';
import {
  applicationSubmitted,
  benchApplication,
  benchTemplates,
  FirstTimes,
  kindCounts,
  REVISION_LABEL,
  ResourceTracker,
  RUN_LABEL,
  showsRevision,
  StateTimeline,
  templateKinds,
  templateTargets,
  type ApplicationShape,
} from './application-model';

const shape: ApplicationShape = {
  name: 'bench-app',
  namespace: 'bench-app',
  run: 'abcd1234',
  templates: 50,
  prefix: 'tmpl',
  clusterSelector: { bench: 'app' },
};

describe('the templates', () => {
  it('are a third each ConfigMaps, Services and Deployments, all in default', () => {
    expect(kindCounts(shape)).toEqual({ ConfigMap: 17, Service: 17, Deployment: 16 });
    expect(new Set(templateTargets(shape).map((t) => t.namespace))).toEqual(new Set(['default']));
  });

  it('with a Namespace template, start with the Namespace and put the rest in it', () => {
    const withNamespace = { ...shape, namespaceTemplate: 'bench-app-abcd1234' };
    expect(templateKinds(withNamespace).slice(0, 4)).toEqual(['Namespace', 'ConfigMap', 'Service', 'Deployment']);
    expect(kindCounts(withNamespace)).toEqual({ Namespace: 1, ConfigMap: 17, Service: 16, Deployment: 16 });
    const [namespace, ...rest] = templateTargets(withNamespace);
    expect(namespace).toEqual({ kind: 'Namespace', name: 'bench-app-abcd1234' });
    expect(new Set(rest.map((t) => t.namespace))).toEqual(new Set(['bench-app-abcd1234']));
  });

  it('have unique names, which the objects in the target share', () => {
    const templates = benchTemplates(shape, 1);
    expect(new Set(templates.map((t) => t.metadata.name)).size).toBe(50);
    for (const template of templates) {
      expect(template.spec.template.metadata).toMatchObject({ name: template.metadata.name });
      expect(template.metadata.name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/); // a Service name must be a DNS label
    }
  });

  it('label the resources with the run, and the objects with the run and the revision', () => {
    const [configMap, service, deployment] = benchTemplates(shape, 2);
    expect(configMap!.metadata.labels).toEqual({ [RUN_LABEL]: 'abcd1234' });
    for (const template of [configMap!, service!, deployment!]) {
      expect(template.spec.template.metadata).toMatchObject({ labels: { [RUN_LABEL]: 'abcd1234', [REVISION_LABEL]: '2' } });
    }
    expect(configMap!.spec.template).toMatchObject({ kind: 'ConfigMap', data: { index: '0', revision: '2' } });
    expect(service!.spec.template).toMatchObject({ kind: 'Service', spec: { type: 'ClusterIP', ports: [{ port: 80 }] } });
    expect(deployment!.spec.template).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1 } });
  });

  it('make an application that selects the cluster by its labels', () => {
    expect(benchApplication(shape)).toMatchObject({
      apiVersion: 'workload.crossplane.io/v1alpha1',
      kind: 'KubernetesApplication',
      metadata: { name: 'bench-app', namespace: 'bench-app', labels: { [RUN_LABEL]: 'abcd1234' } },
      spec: { clusterSelector: { matchLabels: { bench: 'app' } } },
    });
    expect(benchApplication(shape).spec.resourceTemplates).toHaveLength(50);
  });

  it('a listed object shows the change once its revision label does', () => {
    expect(showsRevision({ kind: 'ConfigMap', name: 'a', labels: { [REVISION_LABEL]: '2' } }, 2)).toBe(true);
    expect(showsRevision({ kind: 'ConfigMap', name: 'a', labels: { [REVISION_LABEL]: '1' } }, 2)).toBe(false);
    expect(showsRevision({ kind: 'ConfigMap', name: 'a' }, 2)).toBe(false);
  });
});

describe('applicationSubmitted', () => {
  const app = (state: string, submitted: number, observedGeneration: number) => ({
    status: { state, desiredResources: 50, submittedResources: submitted, observedGeneration },
  });

  it('needs every resource Submitted, at the generation asked for', () => {
    expect(applicationSubmitted(app('Submitted', 50, 2), 50, 2)).toBe(true);
    expect(applicationSubmitted(app('Submitted', 50, 1), 50, 2)).toBe(false);
    expect(applicationSubmitted(app('PartiallySubmitted', 49, 2), 50, 2)).toBe(false);
    expect(applicationSubmitted(undefined, 50, 1)).toBe(false);
  });
});

describe('StateTimeline', () => {
  it('keeps the first poll of each state, from the generation asked for on', () => {
    const timeline = new StateTimeline(1_000, 2);
    timeline.observe({ status: { state: 'Submitted', observedGeneration: 1 } }, 1_100);
    timeline.observe({ status: { state: 'PartiallySubmitted', observedGeneration: 2 } }, 1_500);
    timeline.observe({ status: { state: 'PartiallySubmitted', observedGeneration: 2 } }, 1_600);
    timeline.observe({ status: { state: 'Submitted', observedGeneration: 2 } }, 3_250);
    timeline.observe(undefined, 3_300);
    expect(timeline.seconds()).toEqual({ PartiallySubmitted: 0.5, Submitted: 2.25 });
  });
});

describe('FirstTimes', () => {
  it('keeps the first mark of each key', () => {
    const times = new FirstTimes();
    times.mark('a', 2_000);
    times.mark('a', 3_000);
    times.mark('b', 4_000);
    expect(times.size).toBe(2);
    expect(times.secondsSince(1_000)).toEqual([1, 3]);
  });
});

describe('ResourceTracker', () => {
  const resource = (name: string, generation: number, state: string, observedGeneration: number) => ({
    metadata: { name, generation },
    status: { state, observedGeneration },
  });

  it('records when each resource was first seen, and first Submitted at each generation', () => {
    const tracker = new ResourceTracker();
    tracker.observe(resource('a', 1, 'Scheduled', 1), 100);
    tracker.observe(resource('a', 1, 'Submitted', 1), 200);
    tracker.observe(resource('a', 1, 'Submitted', 1), 300);
    tracker.observe(resource('b', 1, 'Submitted', 1), 250);
    expect([...tracker.seen.at]).toEqual([
      ['a', 100],
      ['b', 250],
    ]);
    expect(tracker.submittedAfter()).toEqual(
      new Map([
        ['a', 200],
        ['b', 250],
      ]),
    );
    expect(tracker.submittedGenerations()).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
  });

  it('counts a resource Submitted again only once it has reconciled its new spec', () => {
    const tracker = new ResourceTracker();
    tracker.observe(resource('a', 1, 'Submitted', 1), 100);
    const before = tracker.submittedGenerations();
    tracker.observe(resource('a', 2, 'Submitted', 1), 500); // the status is the old spec's
    expect(tracker.submittedAfter(before).size).toBe(0);
    tracker.observe(resource('a', 2, 'Submitted', 2), 900);
    expect(tracker.submittedAfter(before)).toEqual(new Map([['a', 900]]));
  });
});
