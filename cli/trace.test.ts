import { describe, expect, it } from 'vitest';
import { managedKinds } from '#providers/registry';
import type { ManagedKind } from '#core/managed-kind';
import type { TracedObject } from './cluster';
import { parseObjectName } from './object-name';
import { buildTrace, conditionSummary, type TraceSource } from './trace-graph';
import { renderTrace, workflowUrl } from './render-tree';

const EC2 = 'ec2.aws.chronoplane.io/v1alpha1';
const ui = { baseUrl: 'http://localhost:8233/', namespace: 'default' };
const ok = [
  { type: 'Ready', status: 'True', reason: 'Available' },
  { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
];

function object(kind: string, name: string, forProvider: Record<string, unknown> = {}, conditions = ok): TracedObject {
  return {
    apiVersion: EC2,
    kind,
    metadata: { name, namespace: 'net', uid: name, generation: 1 } as TracedObject['metadata'],
    spec: { forProvider },
    status: { conditions },
  };
}

const vpc = object('VPC', 'network');
const subnet = object('Subnet', 'public-a', { vpcIdRef: { name: 'network' } });
const routeTable = object('RouteTable', 'public', { vpcIdRef: { name: 'network' } });
const association = object(
  'RouteTableAssociation',
  'public-a',
  { subnetIdRef: { name: 'public-a' }, routeTableIdRef: { name: 'public' } },
  [
    { type: 'Ready', status: 'False', reason: 'Creating', message: 'waiting for RouteTable net/public' } as never,
    { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
  ],
);
const all = [vpc, subnet, routeTable, association];

/** The API server, as a list of objects in namespace net. */
const source: TraceSource = {
  async read(apiVersion, kind, namespace, name) {
    return all.find(
      (o) => o.apiVersion === apiVersion && o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name,
    );
  },
  async list(kind: ManagedKind, namespace: string) {
    return all.filter((o) => o.kind === kind.api.kind && o.metadata.namespace === namespace);
  },
};
const kindOf = (name: string) => managedKinds.find((k) => k.api.kind === name)!;

describe('trace', () => {
  it('shows what an object uses and what uses it, each with its workflow', async () => {
    const tree = await buildTrace({ kind: kindOf('Subnet'), object: subnet }, source, managedKinds);
    expect(renderTrace(tree, 'default', ui)).toBe(
      [
        'NAME                                        SYNCED   READY   STATUS',
        'Subnet/public-a                             True     True    Available',
        '├─ uses VPC/network                         True     True    Available',
        '└─ used by RouteTableAssociation/public-a   True     False   Creating: waiting for RouteTable net/public',
        '',
      ].join('\n'),
    );
    expect(tree.children.map((c) => c.workflowId)).toEqual([
      'VPC.ec2.aws.chronoplane.io/net/network',
      'RouteTableAssociation.ec2.aws.chronoplane.io/net/public-a',
    ]);
  });

  it('follows dependents to the end, and shows a dependent reached two ways under each', async () => {
    const tree = await buildTrace({ kind: kindOf('VPC'), object: vpc }, source, managedKinds);
    const text = renderTrace(tree, 'default', ui);
    const nameWidth = text.indexOf('SYNCED');
    expect(text.split('\n').map((line) => line.slice(0, nameWidth).trimEnd())).toEqual([
      'NAME',
      'VPC/network',
      '├─ used by Subnet/public-a',
      '│  └─ used by RouteTableAssociation/public-a',
      '└─ used by RouteTable/public',
      '   └─ used by RouteTableAssociation/public-a',
      '',
    ]);
  });

  it('shows a reference to an object that does not exist', async () => {
    const orphan = object('Subnet', 'lost', { vpcIdRef: { name: 'gone' } });
    const tree = await buildTrace({ kind: kindOf('Subnet'), object: orphan }, source, managedKinds);
    expect(tree.children[0]).toMatchObject({ relation: 'uses', found: false, status: 'NotFound: no such object', key: { name: 'gone' } });
  });

  it('-o wide adds the workflow id and its page in the Temporal UI; -o json gives the same tree', async () => {
    const tree = await buildTrace({ kind: kindOf('VPC'), object: vpc }, source, managedKinds);
    const firstRow = renderTrace(tree, 'wide', ui).split('\n')[1]!;
    expect(firstRow).toContain('VPC.ec2.aws.chronoplane.io/net/network');
    expect(firstRow).toContain('http://localhost:8233/namespaces/default/workflows/VPC.ec2.aws.chronoplane.io%2Fnet%2Fnetwork');
    const json = JSON.parse(renderTrace(tree, 'json', ui));
    expect(json.children[0].children[0]).toMatchObject({ relation: 'used by', key: { kind: 'RouteTableAssociation' }, ready: 'False' });
    expect(json.workflowUrl).toBe(workflowUrl(ui, 'VPC.ec2.aws.chronoplane.io/net/network'));
  });
});

describe('conditionSummary', () => {
  it('names the first condition that is not True, Synced before Ready', () => {
    const conditions = [
      { type: 'Ready', status: 'False', reason: 'Creating' },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'boom' },
    ];
    expect(conditionSummary({ status: { conditions } }, true)).toEqual({ synced: 'False', ready: 'False', status: 'ReconcileError: boom' });
  });

  it('says Unknown for an object no pass has written yet, and nothing for objects that are not managed', () => {
    expect(conditionSummary({}, true)).toEqual({ synced: 'Unknown', ready: 'Unknown', status: 'no conditions yet' });
    expect(conditionSummary({}, false)).toEqual({ synced: '-', ready: '-', status: '' });
  });
});

describe('parseObjectName', () => {
  it('reads kinds as kubectl does', () => {
    expect(parseObjectName('vpc/main', managedKinds)).toMatchObject({ name: 'main', kind: { api: { kind: 'VPC' } } });
    expect(parseObjectName('subnets/a', managedKinds).kind.api.kind).toBe('Subnet');
    expect(parseObjectName('VPC.ec2.aws.chronoplane.io/main', managedKinds).kind.api.kind).toBe('VPC');
  });

  it('asks for the group when two kinds share a name, and refuses what is not <kind>/<name>', () => {
    expect(() => parseObjectName('object/x', managedKinds)).toThrow(
      /names 2 kinds: write object\.kubernetes\.crossplane\.io\/x or object\.kubernetes\.m\.crossplane\.io\/x/,
    );
    expect(() => parseObjectName('main', managedKinds)).toThrow(/expected <kind>\/<name>/);
    expect(() => parseObjectName('bucket/main', managedKinds)).toThrow(/no managed kind is called "bucket"/);
  });
});
