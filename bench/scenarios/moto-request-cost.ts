// The local EC2 endpoint alone: what each request our control plane sends costs moto with N
// VPCs in it, measured by moto itself (CPU time of the thread that handled it, so neither the
// client, nor queueing, nor other processes on a busy machine count), once with our lookup shortcuts
// (stack/moto_lookup_shortcuts.py) and once as moto ships them.
// The benchmark's other figures are only about us if these stay small next to them.
import {
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteVpcCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { desiredTags, mapToTags, UID_TAG } from '#providers/aws/tags';
import type { ManagedResource } from '#core/managed-resource';
import { MOTO_PLAIN_LOOKUPS_ENV, startMoto } from '#stack/moto';
import { freePort } from '#stack/ports';
import { benchEc2Client } from '../bench-ec2';
import { benchVpcObject, BENCH_TAG } from '../bench-vpcs';
import { readEc2CallCounts } from '../ec2-call-counter';
import { table } from '../measure';
import { mapWithConcurrency } from '../parallel';
import { instrumentMoto } from '../phase-probe';
import { machine, writeResult } from '../results';

const VARIANTS = { shortcut: 'with our shortcuts', plain: 'as moto ships' } as const;
type Variant = keyof typeof VARIANTS;
/** Each kind of request is sampled up to this many times, or until this much time has gone. */
const SAMPLES = 10;
const BUDGET_MS = 30_000;

/** Every request is made for a VPC (index) already there; `ec2` signs with a key of its own. */
interface RequestKind {
  name: string;
  send(ec2: EC2Client, vpc: FilledVpc): Promise<unknown>;
}

interface FilledVpc {
  vpcId: string;
  uid: string;
}

const REQUEST_KINDS: RequestKind[] = [
  {
    name: 'DescribeVpcs by uid tag (create: the lookup before CreateVpc)',
    send: (ec2, vpc) => ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: `tag:${UID_TAG}`, Values: [vpc.uid] }] })),
  },
  { name: 'DescribeVpcs by id (observe)', send: (ec2, vpc) => ec2.send(new DescribeVpcsCommand({ VpcIds: [vpc.vpcId] })) },
  {
    name: 'DescribeVpcAttribute (observe, twice a pass)',
    send: (ec2, vpc) => ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpc.vpcId, Attribute: 'enableDnsSupport' })),
  },
  {
    name: 'CreateTags (drift correction)',
    send: (ec2, vpc) => ec2.send(new CreateTagsCommand({ Resources: [vpc.vpcId], Tags: [{ Key: BENCH_TAG.key, Value: BENCH_TAG.value }] })),
  },
  {
    name: 'CreateVpc + DeleteVpc (a create and a delete)',
    send: async (ec2) => {
      const { Vpc } = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.255.255.0/24' }));
      await ec2.send(new DeleteVpcCommand({ VpcId: Vpc!.VpcId! }));
    },
  },
  {
    name: 'DescribeVpcs of every VPC of ours (by kind tag: a sweep)',
    send: (ec2) =>
      ec2.send(
        new DescribeVpcsCommand({
          Filters: [{ Name: 'tag:crossplane-kind', Values: [desiredTags(vpcApi, fakeVpc('', 0))['crossplane-kind']!] }],
        }),
      ),
  },
];

interface MotoRequestCostResult {
  date: string;
  count: number;
  machine: Awaited<ReturnType<typeof machine>>;
  /** Per variant: seconds to create the N VPCs (32 at a time), and moto's milliseconds per request by kind. */
  variants: Partial<
    Record<
      Variant,
      { fillSeconds: number; fillMotoMsPerCreate: number; msPerRequest: Record<string, number>; samples: Record<string, number> }
    >
  >;
}

/** `plain: false` skips moto as shipped, which takes about half an hour at 10,000 VPCs. */
export async function runMotoRequestCost({ count, plain }: { count: number; plain: boolean }): Promise<MotoRequestCostResult> {
  instrumentMoto();
  const result: MotoRequestCostResult = { date: new Date().toISOString(), count, machine: await machine(), variants: {} };
  const variants = (Object.keys(VARIANTS) as Variant[]).filter((v) => plain || v !== 'plain');
  for (const variant of variants) {
    console.log(`moto with ${count} VPCs, lookups ${VARIANTS[variant]}…`);
    result.variants[variant] = await measureVariant(variant, count);
  }
  const rows = [['request (moto CPU ms per request)', ...Object.values(VARIANTS)]];
  const cell = (variant: Variant, value: (v: NonNullable<MotoRequestCostResult['variants'][Variant]>) => string) => {
    const figures = result.variants[variant];
    return figures ? value(figures) : '—';
  };
  rows.push([
    `fill: ${count} × CreateVpc, 32 at a time`,
    ...(Object.keys(VARIANTS) as Variant[]).map((v) =>
      cell(v, (f) => `${f.fillSeconds.toFixed(1)} s (${f.fillMotoMsPerCreate.toFixed(1)} ms each)`),
    ),
  ]);
  for (const kind of REQUEST_KINDS) {
    rows.push([
      kind.name,
      ...(Object.keys(VARIANTS) as Variant[]).map((v) =>
        cell(v, (f) => `${f.msPerRequest[kind.name]!.toFixed(1)} ms (${f.samples[kind.name]} samples)`),
      ),
    ]);
  }
  console.log(`\n== moto alone with ${count} VPCs ==`);
  console.log(table(rows));
  console.log(`\nwrote ${await writeResult(`moto-request-cost-${count}`, result)}`);
  return result;
}

async function measureVariant(variant: Variant, count: number): Promise<NonNullable<MotoRequestCostResult['variants'][Variant]>> {
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-moto-cost-'));
  const port = await freePort();
  // startMoto hands moto this process's environment.
  const moto = await withEnvironment(MOTO_PLAIN_LOOKUPS_ENV, variant === 'plain' ? '1' : undefined, () =>
    startMoto({ dir, port, detached: false }),
  );
  const clients = new Map<string, EC2Client>();
  const clientFor = (key: string) => clients.get(key) ?? clients.set(key, benchEc2Client(moto.endpoint, key)).get(key)!;
  try {
    const started = Date.now();
    const vpcs = await mapWithConcurrency(
      Array.from({ length: count }, (_, i) => i),
      32,
      (index) => createLikeOurs(clientFor('fill'), index),
    );
    const fillSeconds = (Date.now() - started) / 1000;
    const samples: Record<string, number> = {};
    for (const [i, kind] of REQUEST_KINDS.entries()) {
      const kindStarted = Date.now();
      let n = 0;
      while (n < SAMPLES && (n === 0 || Date.now() - kindStarted < BUDGET_MS)) {
        await kind.send(clientFor(`kind-${i}`), vpcs[Math.floor(((n + 0.5) / SAMPLES) * count)]!);
        n += 1;
      }
      samples[kind.name] = n;
    }
    const counts = await readEc2CallCounts(moto.endpoint);
    const motoMs = (key: string) => counts.filter((c) => c.accessKey === key).reduce((sum, c) => sum + c.cpuSeconds * 1000, 0);
    const msPerRequest = Object.fromEntries(REQUEST_KINDS.map((kind, i) => [kind.name, motoMs(`kind-${i}`) / samples[kind.name]!]));
    return { fillSeconds, fillMotoMsPerCreate: motoMs('fill') / count, msPerRequest, samples };
  } finally {
    for (const client of clients.values()) client.destroy();
    await moto.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** CreateVpc with the tags our client sets at creation, for a made-up object of that index. */
async function createLikeOurs(ec2: EC2Client, index: number): Promise<FilledVpc> {
  const object = fakeVpc(randomUUID(), index);
  const { Vpc } = await ec2.send(
    new CreateVpcCommand({
      CidrBlock: object.spec.forProvider.cidrBlock,
      TagSpecifications: [{ ResourceType: 'vpc', Tags: mapToTags(desiredTags(vpcApi, object)) }],
    }),
  );
  return { vpcId: Vpc!.VpcId!, uid: object.metadata.uid };
}

/** The bench VPC of that index as the API server would return it, with `uid`. */
function fakeVpc(uid: string, index: number) {
  const object = benchVpcObject('bench', index);
  const metadata = { ...object.metadata, uid, generation: 1, resourceVersion: '1' };
  return { ...object, metadata } satisfies ManagedResource<{ tags?: Record<string, string> }, unknown>;
}

async function withEnvironment<T>(name: string, value: string | undefined, run: () => Promise<T>): Promise<T> {
  const previous = process.env[name];
  const set = (v: string | undefined) => (v === undefined ? delete process.env[name] : (process.env[name] = v));
  set(value);
  try {
    return await run();
  } finally {
    set(previous);
  }
}
