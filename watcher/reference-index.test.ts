// Table tests for the watcher's reverse index: after a sequence of watch events, which objects
// does one more event wake? Each row is a small history (setup) and the event under test. A
// wake-up must reach exactly the objects that care (dependents of a target whose readiness,
// external name, labels or read fields changed; targets a dependent lets go of) and never the
// object itself.
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { GenericReference } from '#core/references/fields';
import type { KindApi } from '#core/managed-kind';
import type { ReferenceDeclaration } from '#core/references/declaration';
import type { ResourceEvent } from '#contract/reconcile-workflow';
import { ReferenceIndex } from './reference-index';
import { testKindApi } from '#test/unit/kind-api';

const GROUP = 'ec2.aws.chronoplane.io';
const V = `${GROUP}/v1alpha1`;
const api = testKindApi;
const vpcApi = api('VPC');
const subnetApi = api('Subnet');
const sgApi = api('SecurityGroup');
const declarations: Record<string, ReferenceDeclaration[]> = {
  Subnet: [
    { field: 'vpcId', to: vpcApi },
    { field: 'vpcCidr', to: vpcApi, fromFieldPath: 'status.atProvider.cidrBlock' },
  ],
};

interface Shape {
  ready?: boolean;
  id?: string;
  labels?: Record<string, string>;
  deleting?: boolean;
  uid?: string;
  rv?: string;
  namespace?: string;
  atProvider?: Record<string, unknown>;
  references?: GenericReference[];
}

function object(kind: string, name: string, forProvider: Record<string, unknown>, shape: Shape = {}): KubernetesObject {
  return {
    apiVersion: V,
    kind,
    metadata: {
      name,
      namespace: shape.namespace ?? 'team-a',
      uid: shape.uid ?? `uid-${name}`,
      resourceVersion: shape.rv ?? '1',
      generation: 1,
      ...(shape.labels && { labels: shape.labels }),
      ...(shape.id && { annotations: { [EXTERNAL_NAME]: shape.id } }),
      ...(shape.deleting && { deletionTimestamp: new Date('2024-05-01T00:00:00Z') }),
    },
    spec: { forProvider, ...(shape.references && { references: shape.references }) },
    status: {
      conditions: [{ type: 'Ready', status: shape.ready ? 'True' : 'False' }],
      ...(shape.atProvider && { atProvider: shape.atProvider }),
    },
  } as KubernetesObject;
}
const vpc = (name: string, shape?: Shape) => object('VPC', name, { cidrBlock: '10.0.0.0/16' }, shape);
const sg = (name: string, shape?: Shape) => object('SecurityGroup', name, {}, shape);
const subnet = (name: string, forProvider: Record<string, unknown>, shape?: Shape) => object('Subnet', name, forProvider, shape);
const readsCidr = (from: string): GenericReference[] => [
  {
    fromObject: { apiVersion: V, kind: 'VPC', name: from, fieldPath: 'status.atProvider.cidrBlock' },
    toFieldPath: 'spec.forProvider.cidrBlock',
  },
];

type Event = [KindApi, KubernetesObject, ResourceEvent['type']];
const apiOf = (o: KubernetesObject): KindApi => ({ VPC: vpcApi, Subnet: subnetApi, SecurityGroup: sgApi })[o.kind as 'VPC']!;
const added = (o: KubernetesObject): Event => [apiOf(o), o, 'ADDED'];
const modified = (o: KubernetesObject): Event => [apiOf(o), o, 'MODIFIED'];
const deleted = (o: KubernetesObject): Event => [apiOf(o), o, 'DELETED'];

function wakesAfter(setup: Event[], event: Event) {
  const index = new ReferenceIndex((a) => declarations[a.kind]);
  for (const e of setup) index.observe(...e);
  return index.observe(...event);
}

const s1 = subnet('s1', { vpcIdRef: { name: 'a' } });
const s2 = subnet('s2', { vpcIdRef: { name: 'a' } });
const other = subnet('other', { vpcIdRef: { name: 'b' } });
const selecting = subnet('sel', { vpcIdSelector: { matchLabels: { net: 'main' } } });
const patching = subnet('patch', {}, { references: readsCidr('a') });
const fromField = subnet('field', { vpcCidrRef: { name: 'a' } });

describe('ReferenceIndex.observe', () => {
  it.each<{ name: string; setup: Event[]; event: Event; wakes: string[] }>([
    // A target's changes, seen by the objects that name it.
    {
      name: 'a target turning Ready wakes its dependents, not unrelated objects nor itself',
      setup: [added(vpc('a')), added(vpc('b')), added(s1), added(s2), added(other)],
      event: modified(vpc('a', { ready: true, rv: '2' })),
      wakes: ['Subnet/s1', 'Subnet/s2'],
    },
    {
      name: 'a target\u2019s external name appearing wakes its dependents',
      setup: [added(vpc('a', { ready: true })), added(s1)],
      event: modified(vpc('a', { ready: true, id: 'vpc-1', rv: '2' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a target turning not Ready wakes its dependents',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1)],
      event: modified(vpc('a', { id: 'vpc-1', rv: '2' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a status change other than Ready wakes nobody',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1)],
      event: modified(vpc('a', { ready: true, id: 'vpc-1', rv: '2', atProvider: { state: 'available' } })),
      wakes: [],
    },
    {
      name: 'the same object again (a relist) wakes nobody',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1)],
      event: added(vpc('a', { ready: true, id: 'vpc-1' })),
      wakes: [],
    },
    {
      name: 'a target ADDED after its dependent wakes the dependent',
      setup: [added(s1), added(other)],
      event: added(vpc('a', { ready: true, id: 'vpc-1' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a target being deleted wakes its dependents',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1)],
      event: modified(vpc('a', { ready: true, id: 'vpc-1', deleting: true, rv: '2' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a target DELETED wakes its dependents',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1), added(other)],
      event: deleted(vpc('a', { ready: true, id: 'vpc-1' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a target recreated under the same name (new uid) wakes its dependents',
      setup: [added(vpc('a', { ready: true, id: 'vpc-1' })), added(s1)],
      event: modified(vpc('a', { ready: true, id: 'vpc-1', uid: 'uid-a2' })),
      wakes: ['Subnet/s1'],
    },
    {
      name: 'a target of the same name in another namespace wakes nobody',
      setup: [added(s1)],
      event: added(vpc('a', { ready: true, namespace: 'team-b' })),
      wakes: [],
    },
    {
      name: 'a generic dependsOn dependent is woken too',
      setup: [added(vpc('a')), added(subnet('dep', {}, { references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'a' } }] }))],
      event: modified(vpc('a', { ready: true })),
      wakes: ['Subnet/dep'],
    },
    {
      name: 'an object never wakes itself, even when it names itself',
      setup: [added(vpc('a', { references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'a' } }] }))],
      event: modified(vpc('a', { ready: true, references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'a' } }] })),
      wakes: [],
    },

    // Selectors: woken by objects that match, before anything is selected.
    {
      name: 'a selector dependent is woken when a matching object appears',
      setup: [added(selecting), added(s1)],
      event: added(vpc('x', { labels: { net: 'main', more: 'labels' } })),
      wakes: ['Subnet/sel'],
    },
    {
      name: 'a selector dependent is not woken by an object whose labels do not match',
      setup: [added(selecting)],
      event: added(vpc('x', { labels: { net: 'other' } })),
      wakes: [],
    },
    {
      name: 'a selector dependent is woken when an object\u2019s labels change to match',
      setup: [added(selecting), added(vpc('x', { labels: { net: 'other' } }))],
      event: modified(vpc('x', { labels: { net: 'main' }, rv: '2' })),
      wakes: ['Subnet/sel'],
    },
    {
      name: 'a selector dependent is woken when an object\u2019s labels stop matching',
      setup: [added(selecting), added(vpc('x', { labels: { net: 'main' } }))],
      event: modified(vpc('x', { labels: { net: 'other' }, rv: '2' })),
      wakes: ['Subnet/sel'],
    },
    {
      name: 'a selector dependent is woken when a matching object turns Ready',
      setup: [added(selecting), added(vpc('x', { labels: { net: 'main' } }))],
      event: modified(vpc('x', { labels: { net: 'main' }, ready: true, rv: '2' })),
      wakes: ['Subnet/sel'],
    },
    {
      name: 'a selector dependent is woken when a matching object is DELETED',
      setup: [added(selecting), added(vpc('x', { labels: { net: 'main' } }))],
      event: deleted(vpc('x', { labels: { net: 'main' } })),
      wakes: ['Subnet/sel'],
    },
    {
      name: 'a selector dependent is not woken by a matching object of another kind',
      setup: [added(selecting)],
      event: added(sg('x', { labels: { net: 'main' } })),
      wakes: [],
    },
    {
      name: 'a selector dependent is not woken by a matching object in another namespace',
      setup: [added(selecting)],
      event: added(vpc('x', { labels: { net: 'main' }, namespace: 'team-b' })),
      wakes: [],
    },

    // A dependent letting go: the targets it named may be waiting to be deleted.
    {
      name: 'a dependent DELETED wakes its targets',
      setup: [added(vpc('a', { deleting: true })), added(vpc('b')), added(s1)],
      event: deleted(s1),
      wakes: ['VPC/a'],
    },
    {
      name: 'a dependent whose Ref now names another object wakes the old target only',
      setup: [added(vpc('a')), added(vpc('b')), added(s1)],
      event: modified(subnet('s1', { vpcIdRef: { name: 'b' } }, { rv: '2' })),
      wakes: ['VPC/a'],
    },
    {
      name: 'a dependent that drops a dependsOn wakes the object it let go of',
      setup: [added(vpc('a')), added(subnet('dep', {}, { references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'a' } }] }))],
      event: modified(subnet('dep', {}, { rv: '2' })),
      wakes: ['VPC/a'],
    },
    {
      name: 'a dependent\u2019s change that keeps its targets wakes nobody',
      setup: [added(vpc('a')), added(s1)],
      event: modified(subnet('s1', { vpcIdRef: { name: 'a' }, cidrBlock: '10.0.1.0/24' }, { rv: '2' })),
      wakes: [],
    },
    {
      name: 'a dependent turning Ready wakes its own dependents, not its targets',
      setup: [
        added(vpc('a')),
        added(s1),
        added(vpc('on-s1', { references: [{ dependsOn: { apiVersion: V, kind: 'Subnet', name: 's1' } }] })),
      ],
      event: modified(subnet('s1', { vpcIdRef: { name: 'a' } }, { ready: true, rv: '2' })),
      wakes: ['VPC/on-s1'],
    },

    // Fields read from a target: a change of that field wakes; other changes do not. The setup
    // ends with the target seen once after its reader (a relist), as in steady operation.
    {
      name: 'a patch dependent is woken when the field it reads changes',
      setup: [
        added(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' } })),
        added(patching),
        modified(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' } })),
      ],
      event: modified(vpc('a', { atProvider: { cidrBlock: '10.1.0.0/16' }, rv: '2' })),
      wakes: ['Subnet/patch'],
    },
    {
      name: 'a patch dependent is woken when the field it reads appears',
      setup: [added(vpc('a')), added(patching), modified(vpc('a'))],
      event: modified(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' }, rv: '2' })),
      wakes: ['Subnet/patch'],
    },
    {
      name: 'a patch dependent is not woken when other status fields change',
      setup: [
        added(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' } })),
        added(patching),
        modified(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' } })),
      ],
      event: modified(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16', state: 'available' }, rv: '2' })),
      wakes: [],
    },
    {
      name: 'a typed fromFieldPath dependent is woken when the field it reads changes',
      setup: [added(vpc('a', { ready: true })), added(fromField), modified(vpc('a', { ready: true }))],
      event: modified(vpc('a', { ready: true, atProvider: { cidrBlock: '10.0.0.0/16' }, rv: '2' })),
      wakes: ['Subnet/field'],
    },
    {
      // One print per target: a change any dependent cares about wakes them all (a cheap extra pass).
      name: 'a field read by one dependent wakes every dependent of that target',
      setup: [added(vpc('a', { ready: true })), added(fromField), added(s1), modified(vpc('a', { ready: true }))],
      event: modified(vpc('a', { ready: true, atProvider: { cidrBlock: '10.0.0.0/16' }, rv: '2' })),
      wakes: ['Subnet/field', 'Subnet/s1'],
    },

    // Objects that cannot be indexed.
    {
      name: 'an object without a uid is ignored',
      setup: [added(s1)],
      event: [vpcApi, { ...vpc('a', { ready: true }), metadata: { name: 'a', namespace: 'team-a' } }, 'ADDED'],
      wakes: [],
    },
  ])('$name', ({ setup, event, wakes }) => {
    const woken = wakesAfter(setup, event).map((w) => `${w.ref.kind}/${w.ref.name}`);
    expect(woken.sort()).toEqual(wakes);
  });

  it('wake-up events carry wake: true and the dependent\u2019s identity, not the target\u2019s', () => {
    const dependent = subnet('s1', { vpcIdRef: { name: 'a' } }, { uid: 'uid-s1', rv: '42' });
    const woken = wakesAfter([added(vpc('a')), added(dependent)], modified(vpc('a', { ready: true, rv: '7' })));
    expect(woken).toEqual([
      {
        ref: { group: GROUP, kind: 'Subnet', namespace: 'team-a', name: 's1' },
        event: { type: 'MODIFIED', uid: 'uid-s1', resourceVersion: '42', generation: 1, wake: true },
      },
    ]);
  });

  // A watcher restarted after missing events lists its target first, then the dependent, which
  // waits still: nothing woke it when the target turned Ready while the watcher was down.
  it('wakes a dependent seen for the first time that waits for its references, once', () => {
    const waiting = subnet('s1', { vpcIdRef: { name: 'a' } });
    (waiting as { status: { conditions: { type: string; status: string }[] } }).status.conditions.push({
      type: 'ReferencesResolved',
      status: 'False',
    });
    const index = new ReferenceIndex((a) => declarations[a.kind]);
    index.observe(...added(vpc('a', { ready: true, id: 'vpc-1' })));
    expect(index.observe(...added(waiting)).map((w) => `${w.ref.kind}/${w.ref.name}`)).toEqual(['Subnet/s1']);
    expect(index.observe(...modified(waiting))).toEqual([]); // seen before: its own events wake nobody
    expect(wakesAfter([added(vpc('a', { ready: true }))], added(s1))).toEqual([]); // not waiting: nothing to wake
  });

  // The dependents it waited for went while the watcher was down: nothing is left to wake it.
  it('wakes an object seen for the first time whose deletion waits for dependents, once', () => {
    const blocked = vpc('a', { deleting: true });
    (blocked as { status: { conditions: { type: string; status: string; message?: string }[] } }).status.conditions = [
      { type: 'Ready', status: 'False', message: 'waiting for dependents to be deleted first: Subnet team-a/s1' },
    ];
    const index = new ReferenceIndex((a) => declarations[a.kind]);
    expect(index.observe(...added(blocked)).map((w) => `${w.ref.kind}/${w.ref.name}`)).toEqual(['VPC/a']);
    expect(index.observe(...modified(blocked))).toEqual([]);
  });

  it('wakes with the dependent\u2019s latest resourceVersion', () => {
    const woken = wakesAfter(
      [
        added(vpc('a')),
        added(subnet('s1', { vpcIdRef: { name: 'a' } }, { rv: '1' })),
        modified(subnet('s1', { vpcIdRef: { name: 'a' } }, { rv: '5' })),
      ],
      modified(vpc('a', { ready: true })),
    );
    expect(woken.map((w) => w.event.resourceVersion)).toEqual(['5']);
  });

  it('forgets a deleted dependent: its former target\u2019s next change wakes nobody', () => {
    const index = new ReferenceIndex((a) => declarations[a.kind]);
    for (const e of [added(vpc('a')), added(s1), deleted(s1)]) index.observe(...e);
    expect(index.observe(...modified(vpc('a', { ready: true })))).toEqual([]);
  });

  // What the target looked like before its reader arrived must not count as a change of the
  // field read: that would wake the reader on the target's next change of any kind.
  it('a patch dependent that arrived after its target is not woken when other status fields change', () => {
    const woken = wakesAfter(
      [added(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16' } })), added(patching)],
      modified(vpc('a', { atProvider: { cidrBlock: '10.0.0.0/16', state: 'available' }, rv: '2' })),
    );
    expect(woken).toEqual([]);
  });
});
