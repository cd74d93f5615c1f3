// Table tests for resolving references, one table per behaviour: typed Refs, Selectors, list
// references, generic references (fromObject, patchesFrom, dependsOn) and field paths. Every row
// runs against a small world of existing objects, read the way the activity reads them (named
// targets by key, selector candidates by label in name order), and every row also checks two
// invariants: `resolved` is the input with exactly the writes applied, and the input is untouched.
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { GenericReference } from '#core/references/fields';
import type { ManagedResource } from '#core/managed-resource';
import type { ReferenceDeclaration } from '#core/references/declaration';
import { dependenciesOf, groupOf, keyOf, namedTargets, type Dependency } from './dependencies';
import { getValue, setValue } from '#core/references/fieldpath';
import { isReady, resolveReferences, type KubeObject, type Resolution } from './resolution';
import { testKindApi } from '#test/unit/kind-api';

const GROUP = 'ec2.aws.chronoplane.io';
const V = `${GROUP}/v1alpha1`;
const api = testKindApi;
const vpcId: ReferenceDeclaration = { field: 'vpcId', to: api('VPC') };
const vpcCidr: ReferenceDeclaration = { field: 'vpcCidr', to: api('VPC'), fromFieldPath: 'status.atProvider.cidrBlock' };
const routeTableId: ReferenceDeclaration = { field: 'routeTableId', to: api('RouteTable') };
const securityGroupIds: ReferenceDeclaration = { field: 'securityGroupIds', to: api('SecurityGroup'), list: true };
const subnetKind = { references: [vpcId, vpcCidr, routeTableId, securityGroupIds] };

type Existing = KubeObject & { apiVersion: string; kind: string };

interface Shape {
  ready?: boolean | 'False';
  /** The external name; null for none yet. */
  id?: string | null;
  labels?: Record<string, string>;
  deleting?: boolean;
  controller?: string;
  namespace?: string;
  atProvider?: Record<string, unknown>;
}

function managed(kind: string, prefix: string, name: string, shape: Shape = {}): Existing {
  const id = shape.id === undefined ? `${prefix}-${name}` : shape.id;
  return {
    apiVersion: V,
    kind,
    metadata: {
      name,
      namespace: shape.namespace ?? 'team-a',
      uid: `uid-${name}`,
      ...(shape.labels && { labels: shape.labels }),
      ...(id !== null && { annotations: { [EXTERNAL_NAME]: id } }),
      ...(shape.deleting && { deletionTimestamp: '2024-05-01T00:00:00Z' }),
      ...(shape.controller && { ownerReferences: [{ uid: shape.controller, controller: true }] }),
    },
    spec: { forProvider: { cidrBlock: '10.0.0.0/16' } },
    status: {
      conditions: shape.ready === false ? [] : [{ type: 'Ready', status: shape.ready === 'False' ? 'False' : 'True' }],
      ...(shape.atProvider && { atProvider: shape.atProvider }),
    },
  };
}
const vpc = (name: string, shape?: Shape) => managed('VPC', 'vpc', name, shape);
const sg = (name: string, shape?: Shape) => managed('SecurityGroup', 'sg', name, shape);
const configMap = (name: string, data: Record<string, string>, namespace = 'team-a'): Existing => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid: `uid-${name}` },
  data,
});

interface Case {
  forProvider?: Record<string, unknown>;
  references?: GenericReference[];
  labels?: Record<string, string>;
  world?: Existing[];
  /** The controller (owner uid) of the object being resolved. */
  controller?: string;
}

function resolve({ forProvider = {}, references, labels, world = [], controller }: Case): { object: KubeObject; resolution: Resolution } {
  const object: KubeObject = {
    apiVersion: V,
    kind: 'Subnet',
    metadata: {
      name: 'sub',
      namespace: 'team-a',
      uid: 'uid-sub',
      ...(labels && { labels }),
      ...(controller && { ownerReferences: [{ uid: controller, controller: true }] }),
    },
    spec: { forProvider, ...(references && { references }) },
  };
  const dependencies = dependenciesOf(subnetKind, object as unknown as ManagedResource);
  const keyed = new Map(
    world.map((o) => [
      keyOf({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name }),
      o,
    ]),
  );
  const targets = new Map(namedTargets(dependencies).map((k) => [keyOf(k), keyed.get(keyOf(k))]));
  const selected = new Map<Dependency, KubeObject[]>();
  for (const d of dependencies) {
    if (d.type !== 'selector') continue;
    const matches = world.filter(
      (o) =>
        groupOf(o.apiVersion) === d.group &&
        o.kind === d.kind &&
        (o.metadata.namespace ?? '') === d.namespace &&
        Object.entries(d.selector.matchLabels ?? {}).every(([k, v]) => o.metadata.labels?.[k] === v),
    );
    selected.set(
      d,
      matches.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
    );
  }
  const before = structuredClone(object);
  const resolution = resolveReferences({ object, dependencies, targets, selected });
  expect(object, 'the input object is not mutated').toEqual(before);
  const applied = resolution.writes.reduce<KubeObject>((o, w) => setValue(o, w.path, w.value), before);
  expect(resolution.resolved, '`resolved` is the input with exactly the writes applied').toEqual(applied);
  return { object, resolution };
}

interface Expected {
  /** path → value, in write order. */
  writes?: Record<string, unknown>;
  waiting?: string[];
  errors?: unknown[];
  /** Names of the objects selectors picked. */
  selected?: string[];
}

function check(resolution: Resolution, { writes = {}, waiting = [], errors = [], selected = [] }: Expected): void {
  expect(resolution.writes.map((w) => [w.path, w.value])).toEqual(Object.entries(writes));
  expect(resolution.waiting).toEqual(waiting);
  expect(resolution.errors).toEqual(errors);
  expect(resolution.selectedTargets.map((t) => t.name)).toEqual(selected);
}

type Row = { name: string } & Case & Expected;

describe('resolveReferences: a typed Ref', () => {
  it.each<Row>([
    {
      name: 'writes the external name of a Ready target',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'wins over a raw value',
      forProvider: { vpcId: 'vpc-old', vpcIdRef: { name: 'a' } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    { name: 'writes nothing when the value is already there', forProvider: { vpcId: 'vpc-a', vpcIdRef: { name: 'a' } }, world: [vpc('a')] },
    {
      name: 'refuses a target in another region, whose id would name nothing here',
      forProvider: { region: 'us-west-2', vpcIdRef: { name: 'a' } },
      world: [{ ...vpc('a'), spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.0.0.0/16' } } }],
      errors: ['reference to VPC team-a/a: it is in region us-east-1, this object in us-west-2'],
    },
    {
      name: 'resolves a target in the same region',
      forProvider: { region: 'us-east-1', vpcIdRef: { name: 'a' } },
      world: [{ ...vpc('a'), spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.0.0.0/16' } } }],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    { name: 'a raw value without a Ref is used as it is', forProvider: { vpcId: 'vpc-existing' }, world: [vpc('a')] },
    {
      name: 'Always (written out) behaves as the default',
      forProvider: { vpcId: 'vpc-old', vpcIdRef: { name: 'a', policy: { resolve: 'Always' } } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'IfNotPresent keeps a value that is present',
      forProvider: { vpcId: 'vpc-old', vpcIdRef: { name: 'a', policy: { resolve: 'IfNotPresent' } } },
      world: [vpc('a')],
    },
    {
      // The field's description: IfNotPresent resolves only while the field is empty. With a value
      // there is nothing to resolve, so nothing to wait for (as crossplane-runtime's IsNoOp).
      name: 'IfNotPresent with a value present does not wait for a missing target',
      forProvider: { vpcId: 'vpc-raw', vpcIdRef: { name: 'a', policy: { resolve: 'IfNotPresent' } } },
    },
    {
      name: 'IfNotPresent fills an absent value',
      forProvider: { vpcIdRef: { name: 'a', policy: { resolve: 'IfNotPresent' } } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'IfNotPresent treats an empty string as absent',
      forProvider: { vpcId: '', vpcIdRef: { name: 'a', policy: { resolve: 'IfNotPresent' } } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'a missing target waits, naming kind and name',
      forProvider: { vpcIdRef: { name: 'a' } },
      waiting: ['VPC team-a/a: not found'],
    },
    {
      name: 'a target of the same name in another namespace is not it',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a', { namespace: 'team-b' })],
      waiting: ['VPC team-a/a: not found'],
    },
    {
      name: 'a target being deleted waits',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a', { deleting: true })],
      waiting: ['VPC team-a/a: being deleted'],
    },
    {
      name: 'a target without a Ready condition waits, although its id is known',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a', { ready: false })],
      waiting: ['VPC team-a/a: not Ready yet'],
    },
    {
      name: 'a target with Ready=False waits',
      forProvider: { vpcId: 'vpc-old', vpcIdRef: { name: 'a' } },
      world: [vpc('a', { ready: 'False' })],
      waiting: ['VPC team-a/a: not Ready yet'],
    },
    {
      name: 'a Ready target without an external name waits',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a', { id: null })],
      waiting: ['VPC team-a/a: has no external name yet'],
    },
    {
      name: 'an empty external name is no external name',
      forProvider: { vpcIdRef: { name: 'a' } },
      world: [vpc('a', { id: '' })],
      waiting: ['VPC team-a/a: has no external name yet'],
    },
    {
      name: 'Optional: a missing target neither waits nor writes',
      forProvider: { vpcIdRef: { name: 'a', policy: { resolution: 'Optional' } } },
    },
    {
      name: 'Optional: a target not Ready neither waits nor writes, and the raw value stays',
      forProvider: { vpcId: 'vpc-raw', vpcIdRef: { name: 'a', policy: { resolution: 'Optional' } } },
      world: [vpc('a', { ready: false })],
    },
    {
      name: 'Optional: a Ready target is written',
      forProvider: { vpcIdRef: { name: 'a', policy: { resolution: 'Optional' } } },
      world: [vpc('a')],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'Required (written out) behaves as the default',
      forProvider: { vpcIdRef: { name: 'a', policy: { resolution: 'Required' } } },
      waiting: ['VPC team-a/a: not found'],
    },
    {
      name: 'fromFieldPath takes the declared field instead of the external name',
      forProvider: { vpcCidrRef: { name: 'a' } },
      world: [vpc('a', { atProvider: { cidrBlock: '10.1.0.0/16' } })],
      writes: { 'spec.forProvider.vpcCidr': '10.1.0.0/16' },
    },
    {
      name: 'fromFieldPath not set yet waits, naming the field',
      forProvider: { vpcCidrRef: { name: 'a' } },
      world: [vpc('a')],
      waiting: ['VPC team-a/a: status.atProvider.cidrBlock is not set yet'],
    },
    {
      name: 'two references are resolved independently; what waits is listed in declaration order',
      forProvider: { routeTableIdRef: { name: 'rt' }, vpcIdRef: { name: 'a' }, vpcCidrRef: { name: 'b' } },
      world: [vpc('a'), vpc('b', { ready: false })],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
      waiting: ['VPC team-a/b: not Ready yet', 'RouteTable team-a/rt: not found'],
    },
  ])('$name', (row) => check(resolve(row).resolution, row));
});

describe('resolveReferences: a Selector', () => {
  const net = { vpcIdSelector: { matchLabels: { net: 'main' } } };
  it.each<Row>([
    { name: 'zero matches waits, naming the selector', forProvider: net, waiting: ['vpcIdSelector {net=main}: no VPC matches'] },
    {
      name: 'zero matches, Optional, neither waits nor writes',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, policy: { resolution: 'Optional' } } },
    },
    {
      name: 'one match writes the Ref, then the value',
      forProvider: net,
      world: [vpc('a', { labels: { net: 'main' } }), vpc('b', { labels: { net: 'other' } })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'a' }, 'spec.forProvider.vpcId': 'vpc-a' },
      selected: ['a'],
    },
    {
      name: 'one match wins over a raw value',
      forProvider: { ...net, vpcId: 'vpc-old' },
      world: [vpc('a', { labels: { net: 'main' } })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'a' }, 'spec.forProvider.vpcId': 'vpc-a' },
      selected: ['a'],
    },
    {
      name: 'one match that is not Ready writes the Ref and waits for it',
      forProvider: net,
      world: [vpc('a', { labels: { net: 'main' }, ready: false })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'a' } },
      waiting: ['VPC team-a/a: not Ready yet'],
      selected: ['a'],
    },
    {
      name: 'an Optional Selector keeps its policy for what it selected: a match not Ready does not wait',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, policy: { resolution: 'Optional' } } },
      world: [vpc('a', { labels: { net: 'main' }, ready: false })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'a' } },
      selected: ['a'],
    },
    {
      name: 'two matches are an error naming both; nothing is written',
      forProvider: net,
      world: [vpc('b', { labels: { net: 'main' } }), vpc('a', { labels: { net: 'main', extra: 'x' } })],
      errors: ['vpcIdSelector {net=main} matches 2 VPCs (a, b); it must select exactly one'],
    },
    {
      name: 'every label must match',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main', tier: 'web' } } },
      world: [vpc('a', { labels: { net: 'main' } }), vpc('b', { labels: { net: 'main', tier: 'web' } })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'b' }, 'spec.forProvider.vpcId': 'vpc-b' },
      selected: ['b'],
    },
    {
      name: 'only objects of the declared kind, in this namespace, are candidates',
      forProvider: net,
      world: [sg('a', { labels: { net: 'main' } }), vpc('b', { labels: { net: 'main' }, namespace: 'team-b' })],
      waiting: ['vpcIdSelector {net=main}: no VPC matches'],
    },
    {
      name: 'matchControllerRef keeps only objects with the same controller',
      controller: 'owner-1',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, matchControllerRef: true } },
      world: [vpc('a', { labels: { net: 'main' }, controller: 'owner-2' }), vpc('b', { labels: { net: 'main' }, controller: 'owner-1' })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'b' }, 'spec.forProvider.vpcId': 'vpc-b' },
      selected: ['b'],
    },
    {
      name: 'matchControllerRef counts matches after filtering, for the error too',
      controller: 'owner-1',
      forProvider: { vpcIdSelector: { matchControllerRef: true } },
      world: [vpc('a', { controller: 'owner-1' }), vpc('b', { controller: 'owner-1' }), vpc('c', { controller: 'owner-2' })],
      errors: ['vpcIdSelector {} matches 2 VPCs (a, b); it must select exactly one'],
    },
    {
      name: 'matchControllerRef on an object without a controller matches nothing',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, matchControllerRef: true } },
      world: [vpc('a', { labels: { net: 'main' }, controller: 'owner-1' })],
      waiting: ['vpcIdSelector {net=main}: no VPC matches'],
    },
    {
      name: 'matchControllerRef never matches candidates without a controller',
      controller: 'owner-1',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, matchControllerRef: true } },
      world: [vpc('a', { labels: { net: 'main' } })],
      waiting: ['vpcIdSelector {net=main}: no VPC matches'],
    },
    {
      name: 'matchControllerRef false selects regardless of controller',
      controller: 'owner-1',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' }, matchControllerRef: false } },
      world: [vpc('a', { labels: { net: 'main' }, controller: 'owner-2' })],
      writes: { 'spec.forProvider.vpcIdRef': { name: 'a' }, 'spec.forProvider.vpcId': 'vpc-a' },
      selected: ['a'],
    },
    {
      name: 'a Ref already written makes the Selector unused, even with two matches',
      forProvider: { ...net, vpcIdRef: { name: 'a' } },
      world: [vpc('a', { labels: { net: 'main' } }), vpc('b', { labels: { net: 'main' } })],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
  ])('$name', (row) => check(resolve(row).resolution, row));
});

describe('resolveReferences: a list reference', () => {
  it.each<Row>([
    {
      name: 'Refs write every value, in Ref order',
      forProvider: { securityGroupIdRefs: [{ name: 'b' }, { name: 'a' }] },
      world: [sg('a'), sg('b')],
      writes: { 'spec.forProvider.securityGroupIds': ['sg-b', 'sg-a'] },
    },
    {
      name: 'Refs win over raw values',
      forProvider: { securityGroupIds: ['sg-old'], securityGroupIdRefs: [{ name: 'a' }] },
      world: [sg('a')],
      writes: { 'spec.forProvider.securityGroupIds': ['sg-a'] },
    },
    {
      name: 'Refs already in place write nothing',
      forProvider: { securityGroupIds: ['sg-a', 'sg-b'], securityGroupIdRefs: [{ name: 'a' }, { name: 'b' }] },
      world: [sg('a'), sg('b')],
    },
    {
      name: 'one unresolved Ref waits and holds back the whole list',
      forProvider: { securityGroupIds: ['sg-old'], securityGroupIdRefs: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      world: [sg('a'), sg('b', { ready: false })],
      waiting: ['SecurityGroup team-a/b: not Ready yet', 'SecurityGroup team-a/c: not found'],
    },
    {
      name: 'an Optional Ref that does not resolve is left out of the list',
      forProvider: { securityGroupIdRefs: [{ name: 'a' }, { name: 'gone', policy: { resolution: 'Optional' } }] },
      world: [sg('a')],
      writes: { 'spec.forProvider.securityGroupIds': ['sg-a'] },
    },
    {
      name: 'a Selector picks every match, in name order: Refs, then values',
      forProvider: { securityGroupIdSelector: { matchLabels: { tier: 'web' } } },
      world: [sg('b', { labels: { tier: 'web' } }), sg('a', { labels: { tier: 'web' } }), sg('c', { labels: { tier: 'db' } })],
      writes: {
        'spec.forProvider.securityGroupIdRefs': [{ name: 'a' }, { name: 'b' }],
        'spec.forProvider.securityGroupIds': ['sg-a', 'sg-b'],
      },
      selected: ['a', 'b'],
    },
    {
      name: 'a Selector with zero matches waits',
      forProvider: { securityGroupIdSelector: { matchLabels: { tier: 'web' } } },
      waiting: ['securityGroupIdSelector {tier=web}: no SecurityGroup matches'],
    },
    {
      name: 'a Selector whose matches are not all Ready writes the Refs and waits',
      forProvider: { securityGroupIdSelector: { matchLabels: { tier: 'web' } } },
      world: [sg('a', { labels: { tier: 'web' } }), sg('b', { labels: { tier: 'web' }, ready: false })],
      writes: { 'spec.forProvider.securityGroupIdRefs': [{ name: 'a' }, { name: 'b' }] },
      waiting: ['SecurityGroup team-a/b: not Ready yet'],
      selected: ['a', 'b'],
    },
  ])('$name', (row) => check(resolve(row).resolution, row));
});

describe('resolveReferences: generic references', () => {
  const fromVpc = (fieldPath: string, toFieldPath: string, name = 'a'): GenericReference => ({
    fromObject: { apiVersion: V, kind: 'VPC', name, fieldPath },
    toFieldPath,
  });
  it.each<Row>([
    {
      name: 'fromObject copies fieldPath to toFieldPath, counted from the root',
      references: [fromVpc('spec.forProvider.cidrBlock', 'spec.forProvider.cidrBlock')],
      world: [vpc('a')],
      writes: { 'spec.forProvider.cidrBlock': '10.0.0.0/16' },
    },
    {
      name: 'fromObject overwrites a value that differs',
      forProvider: { cidrBlock: '10.9.0.0/16' },
      references: [fromVpc('spec.forProvider.cidrBlock', 'spec.forProvider.cidrBlock')],
      world: [vpc('a')],
      writes: { 'spec.forProvider.cidrBlock': '10.0.0.0/16' },
    },
    {
      name: 'fromObject writes nothing when the value is already there',
      forProvider: { cidrBlock: '10.0.0.0/16' },
      references: [fromVpc('spec.forProvider.cidrBlock', 'spec.forProvider.cidrBlock')],
      world: [vpc('a')],
    },
    {
      name: 'fromObject does not wait for its source to be Ready, only for the field',
      references: [fromVpc('metadata.annotations[crossplane.io/external-name]', 'spec.forProvider.vpcId')],
      world: [vpc('a', { ready: false })],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
    {
      name: 'fromObject from a core ConfigMap into the spec',
      references: [
        {
          fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data[owner.team]' },
          toFieldPath: 'spec.forProvider.tags[example.com/owner]',
        },
      ],
      world: [configMap('settings', { 'owner.team': 'net-team' })],
      writes: { 'spec.forProvider.tags[example.com/owner]': 'net-team' },
    },
    {
      name: 'patchesFrom counts toFieldPath from spec.forProvider',
      references: [
        { patchesFrom: { apiVersion: V, kind: 'VPC', name: 'a', fieldPath: 'status.atProvider.cidrBlock' }, toFieldPath: 'cidrBlock' },
      ],
      world: [vpc('a', { atProvider: { cidrBlock: '10.1.0.0/16' } })],
      writes: { 'spec.forProvider.cidrBlock': '10.1.0.0/16' },
    },
    {
      name: 'patchesFrom defaults toFieldPath to fieldPath',
      references: [{ patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.region' } }],
      world: [configMap('settings', { region: 'eu-west-1' })],
      writes: { 'spec.forProvider.data.region': 'eu-west-1' },
    },
    {
      name: 'a structured value is copied whole',
      references: [fromVpc('spec.forProvider', 'spec.forProvider.copied')],
      world: [vpc('a')],
      writes: { 'spec.forProvider.copied': { cidrBlock: '10.0.0.0/16' } },
    },
    {
      name: 'a missing source waits, naming kind and name',
      references: [
        {
          fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.region' },
          toFieldPath: 'spec.forProvider.region',
        },
      ],
      waiting: ['ConfigMap team-a/settings: not found'],
    },
    {
      name: 'a source field not set yet waits, naming the field',
      references: [fromVpc('status.atProvider.vpcId', 'spec.forProvider.vpcId')],
      world: [vpc('a')],
      waiting: ['VPC team-a/a: status.atProvider.vpcId is not set yet'],
    },
    {
      name: 'dependsOn neither waits nor writes, even when its target is missing',
      references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'a' } }],
    },
    {
      name: 'dependsOn does not stop a typed reference from resolving',
      forProvider: { vpcIdRef: { name: 'a' } },
      references: [{ dependsOn: { apiVersion: V, kind: 'VPC', name: 'b' } }],
      world: [vpc('a'), vpc('b', { ready: false })],
      writes: { 'spec.forProvider.vpcId': 'vpc-a' },
    },
  ])('$name', (row) => check(resolve(row).resolution, row));
});

describe('resolveReferences: several references to one field', () => {
  const externalNameOf = (name: string): GenericReference => ({
    fromObject: { apiVersion: V, kind: 'VPC', name, fieldPath: 'metadata.annotations[crossplane.io/external-name]' },
    toFieldPath: 'spec.forProvider.vpcId',
  });
  it.each<{ name: string } & Case>([
    {
      name: 'generic references resolve in order: the last one wins',
      references: [externalNameOf('a'), externalNameOf('b')],
      world: [vpc('a'), vpc('b')],
    },
    {
      name: 'a typed Ref and a generic reference: the generic one, resolved later, wins',
      forProvider: { vpcIdRef: { name: 'a' } },
      references: [externalNameOf('b')],
      world: [vpc('a'), vpc('b')],
    },
  ])('$name', (row) => {
    const { resolution } = resolve(row);
    expect(getValue(resolution.resolved, 'spec.forProvider.vpcId')).toBe('vpc-b');
    expect(resolution.writes).toMatchObject([{ path: 'spec.forProvider.vpcId', value: 'vpc-b' }]);
    expect(resolution.waiting).toEqual([]);
    expect(resolution.errors).toEqual([]);
  });

  // Compared with the object as read, not with what an earlier reference just wrote: otherwise
  // every pass would report a write, and run a resolveReferences step (an update call), forever.
  it('writes nothing when the object already holds the value the last reference gives', () => {
    const { resolution } = resolve({
      forProvider: { vpcId: 'vpc-b', vpcIdRef: { name: 'a' } },
      references: [externalNameOf('b')],
      world: [vpc('a'), vpc('b')],
    });
    expect(resolution.writes).toEqual([]);
  });
});

describe('resolveReferences: where a generic reference may write, and malformed paths', () => {
  const to = (toFieldPath: string, fieldPath = 'spec.forProvider.cidrBlock'): GenericReference[] => [
    { fromObject: { apiVersion: V, kind: 'VPC', name: 'a', fieldPath }, toFieldPath },
  ];
  const outside = (path: string) => `reference to VPC team-a/a: toFieldPath ${path} must be under spec`;
  it.each<Row>([
    { name: 'under spec', references: to('spec.cidr'), world: [vpc('a')], writes: { 'spec.cidr': '10.0.0.0/16' } },
    { name: 'not a label', references: to('metadata.labels.cidr'), world: [vpc('a')], errors: [outside('metadata.labels.cidr')] },
    {
      name: 'not an annotation in brackets',
      references: to('metadata.annotations[a.b/c]'),
      world: [vpc('a')],
      errors: [outside('metadata.annotations[a.b/c]')],
    },
    {
      name: 'under spec, however the path spells it (judged on the parsed path)',
      references: to('["spec"].cidr'),
      world: [vpc('a')],
      writes: { '["spec"].cidr': '10.0.0.0/16' },
    },
    {
      name: 'not a label, with labels in brackets',
      references: to('metadata[labels].cidr'),
      world: [vpc('a')],
      errors: [outside('metadata[labels].cidr')],
    },
    {
      name: 'not the name, with metadata quoted',
      references: to("['metadata'].name"),
      world: [vpc('a')],
      errors: [outside("['metadata'].name")],
    },
    {
      name: 'not under status',
      references: to('status.atProvider.cidrBlock'),
      world: [vpc('a')],
      errors: [outside('status.atProvider.cidrBlock')],
    },
    { name: 'not the name', references: to('metadata.name'), world: [vpc('a')], errors: [outside('metadata.name')] },
    { name: 'not the namespace', references: to('metadata.namespace'), world: [vpc('a')], errors: [outside('metadata.namespace')] },
    {
      name: 'not the finalizers',
      references: to('metadata.finalizers[0]'),
      world: [vpc('a')],
      errors: [outside('metadata.finalizers[0]')],
    },
    {
      name: 'not a field that only starts like spec',
      references: to('specification.x'),
      world: [vpc('a')],
      errors: [outside('specification.x')],
    },
    {
      name: 'not a field that only starts like labels',
      references: to('metadata.labelsx'),
      world: [vpc('a')],
      errors: [outside('metadata.labelsx')],
    },
    { name: 'not the apiVersion', references: to('apiVersion'), world: [vpc('a')], errors: [outside('apiVersion')] },
    {
      name: 'an error, not a wait, even when the source is missing',
      references: to('status.x'),
      errors: [outside('status.x')],
    },
    {
      name: 'a malformed fieldPath is an error naming the path',
      references: to('spec.forProvider.cidrBlock', 'spec..cidrBlock'),
      world: [vpc('a')],
      errors: ['reference to VPC team-a/a: invalid field path "spec..cidrBlock": empty field name at position 5'],
    },
    {
      name: 'a malformed toFieldPath is an error naming the path',
      references: to('spec.forProvider[cidrBlock'),
      world: [vpc('a')],
      errors: ['reference to VPC team-a/a: invalid field path "spec.forProvider[cidrBlock": unclosed "[" at position 16'],
    },
    {
      name: 'a toFieldPath the object\u2019s shape refuses is an error',
      forProvider: { cidrBlock: '10.9.0.0/16' },
      references: to('spec.forProvider.cidrBlock.first'),
      world: [vpc('a')],
      errors: [
        expect.stringMatching(
          /^reference to VPC team-a\/a: cannot write spec\.forProvider\.cidrBlock\.first: .*is a string, not an object/,
        ),
      ],
    },
    {
      name: 'errors and waits are both reported (the decision ranks them)',
      forProvider: { vpcIdRef: { name: 'missing' } },
      references: to('status.x'),
      world: [vpc('a')],
      waiting: ['VPC team-a/missing: not found'],
      errors: [outside('status.x')],
    },
  ])('$name', (row) => check(resolve(row).resolution, row));
});

describe('resolveReferences: the resolved object', () => {
  it('has the writes applied, and the input is not mutated', () => {
    const { object, resolution } = resolve({ forProvider: { vpcId: 'vpc-old', vpcIdRef: { name: 'a' } }, world: [vpc('a')] });
    expect((resolution.resolved.spec as { forProvider: unknown }).forProvider).toEqual({ vpcId: 'vpc-a', vpcIdRef: { name: 'a' } });
    expect((object.spec as { forProvider: unknown }).forProvider).toEqual({ vpcId: 'vpc-old', vpcIdRef: { name: 'a' } });
    expect(resolution.resolved).not.toBe(object);
  });

  it('is the input itself when nothing is written', () => {
    const { object, resolution } = resolve({ forProvider: { vpcId: 'vpc-a', vpcIdRef: { name: 'a' } }, world: [vpc('a')] });
    expect(resolution.resolved).toBe(object);
  });

  it('describes each write for the UI', () => {
    const { resolution } = resolve({
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' } }, securityGroupIdRefs: [{ name: 'a' }] },
      references: [
        { patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.region' }, toFieldPath: 'region' },
      ],
      world: [vpc('a', { labels: { net: 'main' } }), sg('a'), configMap('settings', { region: 'eu-west-1' })],
    });
    expect(resolution.writes.map((w) => w.what)).toEqual([
      'vpcIdRef selected by vpcIdSelector {net=main}',
      'vpcId from VPC team-a/a',
      'spec.forProvider.region from ConfigMap team-a/settings data.region',
      'securityGroupIds from securityGroupIdRefs',
    ]);
  });
});

describe('isReady', () => {
  it.each<{ name: string; object: Record<string, unknown>; ready: boolean }>([
    { name: 'no status', object: {}, ready: false },
    { name: 'no conditions', object: { status: {} }, ready: false },
    {
      name: 'Ready True',
      object: {
        status: {
          conditions: [
            { type: 'Synced', status: 'False' },
            { type: 'Ready', status: 'True' },
          ],
        },
      },
      ready: true,
    },
    { name: 'Ready False', object: { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, ready: false },
    { name: 'Ready Unknown', object: { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }, ready: false },
    { name: 'only Synced True', object: { status: { conditions: [{ type: 'Synced', status: 'True' }] } }, ready: false },
  ])('$name', ({ object, ready }) => {
    expect(isReady(object)).toBe(ready);
  });
});
