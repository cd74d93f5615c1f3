// Table tests for reading an object's dependencies from its spec: typed references from its
// kind's declarations (Ref, Refs, Selector) and generic ones (fromObject, patchesFrom,
// dependsOn); the targets it names; and the key that identifies an object in messages, marks
// and the watcher's index.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GenericReference } from '#core/references/fields';
import type { ManagedResource } from '#core/managed-resource';
import type { ReferenceDeclaration } from '#core/references/declaration';
import { dependenciesOf, describeKey, groupOf, keyOf, namedTargets, parseKey, type Dependency, type ObjectKey } from './dependencies';
import { testKindApi } from '#test/unit/kind-api';

const GROUP = 'ec2.aws.chronoplane.io';
const api = testKindApi;
const vpcId: ReferenceDeclaration = { field: 'vpcId', to: api('VPC') };
const routeTableId: ReferenceDeclaration = { field: 'routeTableId', to: api('RouteTable') };
const securityGroupIds: ReferenceDeclaration = { field: 'securityGroupIds', to: api('SecurityGroup'), list: true };
const kind = { references: [vpcId, routeTableId, securityGroupIds] };

const object = (
  forProvider: Record<string, unknown>,
  references: GenericReference[] | undefined,
  namespace: string | undefined,
): Pick<ManagedResource, 'metadata' | 'spec'> => ({
  metadata: { name: 'me', namespace, uid: 'u', generation: 1, resourceVersion: '1' },
  spec: { forProvider, references },
});
const key = (kind: string, name: string, namespace = 'team-a', group = GROUP): ObjectKey => ({ group, kind, namespace, name });
const VPC_V1 = `${GROUP}/v1alpha1`;

describe('dependenciesOf', () => {
  it.each<{
    name: string;
    forProvider?: Record<string, unknown>;
    references?: GenericReference[];
    clusterScoped?: boolean;
    declarations?: readonly ReferenceDeclaration[];
    dependencies: Dependency[];
  }>([
    { name: 'nothing referred to', forProvider: { vpcId: 'vpc-1' }, dependencies: [] },
    {
      name: 'a kind without declarations ignores Ref fields',
      declarations: [],
      forProvider: { vpcIdRef: { name: 'a' } },
      dependencies: [],
    },
    {
      name: 'a Ref, in the object\u2019s namespace',
      forProvider: { vpcIdRef: { name: 'a' } },
      dependencies: [{ type: 'ref', declaration: vpcId, target: key('VPC', 'a'), policy: undefined }],
    },
    {
      name: 'a Ref carries its policy',
      forProvider: { vpcIdRef: { name: 'a', policy: { resolution: 'Optional', resolve: 'IfNotPresent' } } },
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a'), policy: { resolution: 'Optional', resolve: 'IfNotPresent' } },
      ],
    },
    { name: 'a Ref without a name is ignored', forProvider: { vpcIdRef: {} }, dependencies: [] },
    {
      name: 'a Selector while no Ref is set',
      forProvider: { vpcIdSelector: { matchLabels: { net: 'main' } } },
      dependencies: [
        {
          type: 'selector',
          declaration: vpcId,
          group: GROUP,
          kind: 'VPC',
          namespace: 'team-a',
          selector: { matchLabels: { net: 'main' } },
        },
      ],
    },
    {
      name: 'a Ref makes the Selector unused',
      forProvider: { vpcIdRef: { name: 'a' }, vpcIdSelector: { matchLabels: { net: 'main' } } },
      dependencies: [{ type: 'ref', declaration: vpcId, target: key('VPC', 'a'), policy: undefined }],
    },
    {
      name: 'list Refs, one dependency each in order; entries without a name are dropped',
      forProvider: { securityGroupIdRefs: [{ name: 'b' }, {}, { name: 'a' }] },
      dependencies: [
        { type: 'ref', declaration: securityGroupIds, target: key('SecurityGroup', 'b'), policy: undefined },
        { type: 'ref', declaration: securityGroupIds, target: key('SecurityGroup', 'a'), policy: undefined },
      ],
    },
    {
      name: 'an empty list of Refs leaves the Selector in use',
      forProvider: { securityGroupIdRefs: [], securityGroupIdSelector: { matchLabels: { tier: 'web' } } },
      dependencies: [
        {
          type: 'selector',
          declaration: securityGroupIds,
          group: GROUP,
          kind: 'SecurityGroup',
          namespace: 'team-a',
          selector: { matchLabels: { tier: 'web' } },
        },
      ],
    },
    { name: 'a list field written as a single Ref is ignored', forProvider: { securityGroupIdRefs: { name: 'a' } }, dependencies: [] },
    {
      name: 'typed references come in declaration order, whatever the field order',
      forProvider: { routeTableIdRef: { name: 'rt' }, vpcIdRef: { name: 'a' } },
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a'), policy: undefined },
        { type: 'ref', declaration: routeTableId, target: key('RouteTable', 'rt'), policy: undefined },
      ],
    },
    {
      name: 'a cluster-scoped object refers with namespace ""',
      clusterScoped: true,
      forProvider: { vpcIdRef: { name: 'a' } },
      dependencies: [{ type: 'ref', declaration: vpcId, target: key('VPC', 'a', ''), policy: undefined }],
    },
    {
      name: 'fromObject: toFieldPath counts from the root; the namespace defaults to the object\u2019s',
      references: [
        {
          fromObject: { apiVersion: VPC_V1, kind: 'VPC', name: 'a', fieldPath: 'spec.forProvider.cidrBlock' },
          toFieldPath: 'spec.forProvider.cidrBlock',
        },
      ],
      dependencies: [
        {
          type: 'patch',
          target: { apiVersion: VPC_V1, ...key('VPC', 'a') },
          fieldPath: 'spec.forProvider.cidrBlock',
          toFieldPath: 'spec.forProvider.cidrBlock',
          form: 'fromObject',
        },
      ],
    },
    {
      name: 'fromObject from a core object in another namespace',
      references: [
        {
          fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: 'shared', fieldPath: 'data.region' },
          toFieldPath: 'spec.forProvider.region',
        },
      ],
      dependencies: [
        {
          type: 'patch',
          target: { apiVersion: 'v1', ...key('ConfigMap', 'settings', 'shared', '') },
          fieldPath: 'data.region',
          toFieldPath: 'spec.forProvider.region',
          form: 'fromObject',
        },
      ],
    },
    {
      name: 'patchesFrom: toFieldPath counts from spec.forProvider',
      references: [
        { patchesFrom: { apiVersion: VPC_V1, kind: 'VPC', name: 'a', fieldPath: 'status.atProvider.vpcId' }, toFieldPath: 'vpcId' },
      ],
      dependencies: [
        {
          type: 'patch',
          target: { apiVersion: VPC_V1, ...key('VPC', 'a') },
          fieldPath: 'status.atProvider.vpcId',
          toFieldPath: 'spec.forProvider.vpcId',
          form: 'patchesFrom',
        },
      ],
    },
    {
      name: 'patchesFrom: toFieldPath defaults to fieldPath',
      references: [{ patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.region' } }],
      dependencies: [
        {
          type: 'patch',
          target: { apiVersion: 'v1', ...key('ConfigMap', 'settings', 'team-a', '') },
          fieldPath: 'data.region',
          toFieldPath: 'spec.forProvider.data.region',
          form: 'patchesFrom',
        },
      ],
    },
    {
      name: 'dependsOn',
      references: [{ dependsOn: { apiVersion: VPC_V1, kind: 'VPC', name: 'a' } }],
      dependencies: [{ type: 'dependsOn', target: { apiVersion: VPC_V1, ...key('VPC', 'a') } }],
    },
    { name: 'a generic reference with none of the three forms is ignored', references: [{ toFieldPath: 'x' }], dependencies: [] },
    {
      name: 'typed references first, then generic ones in list order',
      forProvider: { vpcIdRef: { name: 'a' } },
      references: [
        { dependsOn: { apiVersion: VPC_V1, kind: 'VPC', name: 'z' } },
        { patchesFrom: { apiVersion: VPC_V1, kind: 'VPC', name: 'y', fieldPath: 'spec.forProvider.cidrBlock' }, toFieldPath: 'cidrBlock' },
      ],
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a'), policy: undefined },
        { type: 'dependsOn', target: { apiVersion: VPC_V1, ...key('VPC', 'z') } },
        {
          type: 'patch',
          target: { apiVersion: VPC_V1, ...key('VPC', 'y') },
          fieldPath: 'spec.forProvider.cidrBlock',
          toFieldPath: 'spec.forProvider.cidrBlock',
          form: 'patchesFrom',
        },
      ],
    },
  ])('$name', ({ forProvider, references, clusterScoped, declarations, dependencies }) => {
    const mr = object(forProvider ?? {}, references, clusterScoped ? undefined : 'team-a');
    expect(dependenciesOf({ references: declarations ?? kind.references }, mr)).toEqual(dependencies);
  });

  it('reads an object without forProvider', () => {
    const mr = { metadata: { name: 'me', uid: 'u', generation: 1, resourceVersion: '1' }, spec: {} } as unknown as ManagedResource;
    expect(dependenciesOf(kind, mr)).toEqual([]);
  });

  // A relative path may start with a bracket (a key with dots, `[app.kubernetes.io/name]`);
  // joined with a dot it would not parse ("spec.forProvider.[…]").
  it('patchesFrom: a toFieldPath that starts with a bracket joins spec.forProvider without a dot', () => {
    const mr = object(
      {},
      [{ patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 's', fieldPath: 'data.x' }, toFieldPath: '[a.b]' }],
      'team-a',
    );
    expect(dependenciesOf(kind, mr)).toMatchObject([{ type: 'patch', toFieldPath: 'spec.forProvider[a.b]' }]);
  });

  // provider-kubernetes' Object: patchesFrom writes into the manifest, and a cluster-scoped
  // object's targets without a namespace are cluster-scoped too.
  it("patchesFrom counts from the kind's own patch root, and a cluster-scoped object's targets have no namespace", () => {
    const objectKind = { compatibleApi: { patchRoot: 'spec.forProvider.manifest' } };
    const mr = object(
      {},
      [
        {
          patchesFrom: { apiVersion: 'kubernetes.crossplane.io/v1alpha1', kind: 'Object', name: 'src', fieldPath: 'status.x' },
          toFieldPath: 'data.y',
        },
      ],
      undefined,
    );
    expect(dependenciesOf(objectKind, mr)).toEqual([
      {
        type: 'patch',
        target: {
          apiVersion: 'kubernetes.crossplane.io/v1alpha1',
          group: 'kubernetes.crossplane.io',
          kind: 'Object',
          namespace: '',
          name: 'src',
        },
        fieldPath: 'status.x',
        toFieldPath: 'spec.forProvider.manifest.data.y',
        form: 'patchesFrom',
      },
    ]);
  });
});

describe('namedTargets', () => {
  const selector: Dependency = { type: 'selector', declaration: vpcId, group: GROUP, kind: 'VPC', namespace: 'team-a', selector: {} };
  it.each<{ name: string; dependencies: Dependency[]; targets: ObjectKey[] }>([
    { name: 'none', dependencies: [], targets: [] },
    { name: 'a selector names nothing until it has selected', dependencies: [selector], targets: [] },
    {
      name: 'Refs, patches and dependsOn name their targets, without apiVersion',
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a') },
        {
          type: 'patch',
          target: { apiVersion: 'v1', ...key('ConfigMap', 'c', 'team-a', '') },
          fieldPath: 'a',
          toFieldPath: 'spec.a',
          form: 'fromObject',
        },
        { type: 'dependsOn', target: { apiVersion: VPC_V1, ...key('VPC', 'b') } },
        selector,
      ],
      targets: [key('VPC', 'a'), key('ConfigMap', 'c', 'team-a', ''), key('VPC', 'b')],
    },
    {
      name: 'a target named twice is listed once',
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a') },
        { type: 'dependsOn', target: { apiVersion: VPC_V1, ...key('VPC', 'a') } },
      ],
      targets: [key('VPC', 'a')],
    },
    {
      name: 'the same name in two namespaces is two targets',
      dependencies: [
        { type: 'ref', declaration: vpcId, target: key('VPC', 'a') },
        { type: 'dependsOn', target: { apiVersion: VPC_V1, ...key('VPC', 'a', 'team-b') } },
      ],
      targets: [key('VPC', 'a'), key('VPC', 'a', 'team-b')],
    },
  ])('$name', ({ dependencies, targets }) => {
    expect(namedTargets(dependencies)).toEqual(targets);
  });
});

describe('keyOf and parseKey', () => {
  it.each<{ name: string; key: ObjectKey; text: string; described: string }>([
    {
      name: 'a namespaced managed object',
      key: key('VPC', 'main'),
      text: 'VPC.ec2.aws.chronoplane.io/team-a/main',
      described: 'VPC team-a/main',
    },
    { name: 'a cluster-scoped object', key: key('VPC', 'main', ''), text: 'VPC.ec2.aws.chronoplane.io//main', described: 'VPC main' },
    {
      name: 'the core group is written "core"',
      key: key('ConfigMap', 'settings', 'team-a', ''),
      text: 'ConfigMap.core/team-a/settings',
      described: 'ConfigMap team-a/settings',
    },
    {
      name: 'a cluster-scoped core object',
      key: key('Namespace', 'prod', '', ''),
      text: 'Namespace.core//prod',
      described: 'Namespace prod',
    },
    {
      name: 'a name with dots',
      key: key('VPC', 'my.vpc.v1'),
      text: 'VPC.ec2.aws.chronoplane.io/team-a/my.vpc.v1',
      described: 'VPC team-a/my.vpc.v1',
    },
    {
      name: 'a one-word group',
      key: key('Deployment', 'web', 'team-a', 'apps'),
      text: 'Deployment.apps/team-a/web',
      described: 'Deployment team-a/web',
    },
  ])('$name', ({ key, text, described }) => {
    expect(keyOf(key)).toBe(text);
    expect(parseKey(text)).toEqual(key);
    expect(describeKey(key)).toBe(described);
  });

  it.each<{ name: string; text: string }>([
    { name: 'empty', text: '' },
    { name: 'a kind alone', text: 'VPC' },
    { name: 'no group', text: 'VPC/team-a/main' },
    { name: 'no name', text: 'VPC.ec2.aws.chronoplane.io/team-a/' },
    { name: 'no kind', text: '.ec2.aws.chronoplane.io/team-a/main' },
    { name: 'too few parts', text: 'VPC.ec2.aws.chronoplane.io/main' },
    { name: 'too many parts', text: 'VPC.ec2.aws.chronoplane.io/team-a/main/extra' },
    { name: 'a describeKey form', text: 'VPC team-a/main' },
  ])('does not parse $name', ({ text }) => {
    expect(parseKey(text)).toBeUndefined();
  });

  it('round-trips every key Kubernetes can name', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    const keys = fc.record({
      kind: fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,20}$/),
      // A group literally named "core" would read back as the core group ''; no real group is.
      group: fc.oneof(
        fc.constant(''),
        fc
          .array(label, { minLength: 1, maxLength: 4 })
          .map((parts) => parts.join('.'))
          .filter((g) => g !== 'core'),
      ),
      namespace: fc.oneof(fc.constant(''), label),
      name: fc.array(label, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.')),
    });
    fc.assert(fc.property(keys, (k) => void expect(parseKey(keyOf(k))).toEqual(k)));
  });
});

describe('groupOf', () => {
  it.each<{ name: string; apiVersion: string; group: string }>([
    { name: 'the core group', apiVersion: 'v1', group: '' },
    { name: 'a named group', apiVersion: 'apps/v1', group: 'apps' },
    { name: 'a dotted group', apiVersion: `${GROUP}/v1alpha1`, group: GROUP },
  ])('$name', ({ apiVersion, group }) => {
    expect(groupOf(apiVersion)).toBe(group);
  });
});
