// One owner per external resource, against the real API server, Temporal and moto. Two teams,
// each in a namespace of its own with its own worker and watcher: team-b names team-a's VPC in
// crossplane.io/external-name and is refused, writing nothing at EC2, however long it tries and
// however it is deleted; once team-a's object is gone (orphaning the VPC), the VPC can be
// adopted through the same annotation, which is what the annotation is for.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteVpcCommand, DescribeKeyPairsCommand, type Vpc } from '@aws-sdk/client-ec2';
import { readEc2CallCounts, summarizeEc2Calls, type Ec2CallCount } from '#bench/ec2-call-counter';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { keyPairApi } from '#providers/aws/ec2/keypair/schema';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { stateQuery } from '#contract/reconcile-workflow';
import { sweepStateQuery, sweepWorkflowIdFor } from '#contract/sweep-workflow';
import { ControlPlane, condition, eventually, vpcManifest, type VpcObject } from './harness';

const EXTERNAL_NAME = 'crossplane.io/external-name';
const CIDR = '10.42.0.0/16';
/** Every EC2 call that changes a VPC or its tags. */
const WRITES = ['CreateTags', 'DeleteTags', 'ModifyVpcAttribute', 'DeleteVpc', 'CreateVpc'];

let teamA: ControlPlane;
let teamB: ControlPlane;
beforeAll(async () => {
  [teamA, teamB] = await Promise.all([ControlPlane.start('own-a'), ControlPlane.start('own-b')]);
});
afterAll(async () => {
  await Promise.all([teamA?.stop(), teamB?.stop()]);
});

const tagsOf = (vpc: Vpc | undefined) => Object.fromEntries((vpc?.Tags ?? []).map((t) => [t.Key!, t.Value!]));
/** The VPC as DescribeVpcs reports it, tags sorted: what must not change, byte for byte. */
const snapshot = async (plane: ControlPlane, vpcId: string) => {
  const vpc = await plane.describeVpc(vpcId);
  return JSON.stringify(vpc && { ...vpc, Tags: [...(vpc.Tags ?? [])].sort((a, b) => a.Key!.localeCompare(b.Key!)) });
};
const workflowOf = (plane: ControlPlane, name: string) =>
  plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, name)));
const sweepsOf = async (plane: ControlPlane) =>
  (
    await plane.temporal.workflow
      .getHandle(sweepWorkflowIdFor({ group: vpcApi.group, kind: vpcApi.kind, namespace: plane.namespace }))
      .query(sweepStateQuery)
  ).sweeps;
/** EC2 calls that changed something since `since`, by action; the default ClusterProviderConfig's key. */
const writesSince = async (plane: ControlPlane, since: Ec2CallCount[]) => {
  const calls = summarizeEc2Calls(since, await readEc2CallCounts(plane.ec2Endpoint), { accessKeyId: 'testing' });
  return Object.fromEntries(Object.entries(calls.byAction).filter(([action]) => WRITES.includes(action)));
};
const refused = (plane: ControlPlane, name: string, message: string) =>
  eventually(async () => {
    const object = await plane.getVpc(name);
    const [ready, synced] = [condition(object, 'Ready'), condition(object, 'Synced')];
    return ready?.status === 'False' && synced?.status === 'False' && synced.message === message && ready.message === message && object;
  }, `${plane.namespace}/${name} to be refused with "${message}"`);
const gone = (plane: ControlPlane, name: string) =>
  eventually(async () => (await plane.getVpc(name)) === undefined, `${plane.namespace}/${name} to be gone`);

describe('one owner per external resource', () => {
  let owner: VpcObject;
  let vpcId: string;
  let refusal: string;

  it("team-a's VPC is Ready and tagged as team-a's", async () => {
    await teamA.apply(vpcManifest('main', { cidrBlock: CIDR, tags: { team: 'a' } }));
    owner = await teamA.ready('vpc', 'main');
    vpcId = owner.metadata.annotations![EXTERNAL_NAME]!;
    expect(tagsOf(await teamA.describeVpc(vpcId))).toMatchObject({
      team: 'a',
      'crossplane-namespace': teamA.namespace,
      'crossplane-name': 'main',
      'chronoplane.io/uid': owner.metadata.uid,
    });
    refusal = `VPC ${vpcId} belongs to VPC ${teamA.namespace}/main (uid ${owner.metadata.uid}): it is not adopted`;
  });

  it("refuses team-b's VPC naming team-a's VPC id: Synced and Ready False naming the owner, no write at EC2 through sweeps and retries", async () => {
    const before = await snapshot(teamA, vpcId);
    const calls = await readEc2CallCounts(teamA.ec2Endpoint);
    await teamB.apply(vpcManifest('taker', { cidrBlock: CIDR, tags: { team: 'b' } }, { annotations: { [EXTERNAL_NAME]: vpcId } }));
    const taker = await refused(teamB, 'taker', refusal);
    // Nothing of team-a's VPC is shown to team-b: no atProvider, nothing late-initialized.
    expect(taker.status?.atProvider ?? {}).toEqual({});
    expect(taker.spec.forProvider.instanceTenancy).toBeUndefined();

    // Its passes back off (5, 10, 20 s …); the sweeps of both namespaces go on meanwhile.
    const takerWorkflow = workflowOf(teamB, 'taker');
    await teamB.failedPasses(takerWorkflow.workflowId, 3);
    const [passes, sweptA, sweptB] = await Promise.all([
      takerWorkflow.query(stateQuery).then((s) => s.passes),
      sweepsOf(teamA),
      sweepsOf(teamB),
    ]);
    await eventually(
      async () => (await sweepsOf(teamA)) >= sweptA + 3 && (await sweepsOf(teamB)) >= sweptB + 3,
      'three more sweeps in both namespaces',
    );
    // The next retry is 20 s after the third failure: no sweep woke it in between.
    expect((await takerWorkflow.query(stateQuery)).passes - passes).toBeLessThanOrEqual(1);

    expect(await snapshot(teamA, vpcId)).toBe(before);
    expect(await writesSince(teamA, calls)).toEqual({});
    expect(await teamA.ready('vpc', 'main')).toMatchObject({ metadata: { uid: owner.metadata.uid } });
  });

  it("deleting team-b's object releases it without touching team-a's VPC, which stays, and team-a's object stays Ready", async () => {
    const before = await snapshot(teamA, vpcId);
    const calls = await readEc2CallCounts(teamA.ec2Endpoint);
    await teamB.kubectl(['delete', 'vpc', 'taker', '--wait=false']);
    await gone(teamB, 'taker');
    expect(await snapshot(teamA, vpcId)).toBe(before);
    expect(await writesSince(teamA, calls)).toEqual({});
    await teamA.ready('vpc', 'main');
  });

  it("an object that turns to team-a's VPC id just before it is deleted deletes nothing of team-a's", async () => {
    await teamB.apply(vpcManifest('switcher', { cidrBlock: '10.43.0.0/16' }));
    const switcher = await teamB.ready('vpc', 'switcher');
    const ownVpcId = switcher.metadata.annotations![EXTERNAL_NAME]!;
    const before = await snapshot(teamA, vpcId);
    await teamB.kubectl(['annotate', 'vpc', 'switcher', '--overwrite', `${EXTERNAL_NAME}=${vpcId}`]);
    await teamB.kubectl(['delete', 'vpc', 'switcher', '--wait=false']);
    await gone(teamB, 'switcher');
    expect(await snapshot(teamA, vpcId)).toBe(before);
    await teamA.ready('vpc', 'main');
    // Its own VPC was left behind when its external name changed: not this test's subject.
    await teamB.ec2.send(new DeleteVpcCommand({ VpcId: ownVpcId }));
  });

  it('once the owner is gone (deleted with deletionPolicy Orphan), the VPC is adopted through external-name and retagged', async () => {
    await teamA.kubectl(['patch', 'vpc', 'main', '--type=merge', '-p', JSON.stringify({ spec: { deletionPolicy: 'Orphan' } })]);
    await teamA.kubectl(['delete', 'vpc', 'main', '--wait=false']);
    await gone(teamA, 'main');
    expect(tagsOf(await teamA.describeVpc(vpcId))).toMatchObject({ 'chronoplane.io/uid': owner.metadata.uid });

    await teamB.apply(vpcManifest('adopter', { cidrBlock: CIDR, tags: { team: 'b' } }, { annotations: { [EXTERNAL_NAME]: vpcId } }));
    const adopter = await teamB.ready('vpc', 'adopter');
    expect(adopter.metadata.annotations![EXTERNAL_NAME]).toBe(vpcId);
    const tags = await eventually(async () => {
      const now = tagsOf(await teamB.describeVpc(vpcId));
      return now['chronoplane.io/uid'] === adopter.metadata.uid && now;
    }, 'the adopted VPC to carry the adopter uid');
    expect(tags).toMatchObject({ team: 'b', 'crossplane-namespace': teamB.namespace, 'crossplane-name': 'adopter' });

    // The adopter now owns it: deleting it deletes the VPC.
    await teamB.kubectl(['delete', 'vpc', 'adopter', '--wait=false']);
    await gone(teamB, 'adopter');
    expect(await teamB.describeVpc(vpcId)).toBeUndefined();
  });
});

describe('one owner per key pair, adopted by name', () => {
  /** An OpenSSH ed25519 public key: its wire form is the last 32 bytes of the SPKI encoding. */
  const publicKeyMaterial = () => {
    const spki = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
    const sshString = (b: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(b.length);
      return Buffer.concat([length, b]);
    };
    const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(spki.subarray(spki.length - 32))]);
    return `ssh-ed25519 ${blob.toString('base64')} team-a@example`;
  };
  const keyPair = (name: string, extra: { annotations?: Record<string, string> } = {}, forProvider: Record<string, unknown> = {}) => ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'KeyPair',
    metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { forProvider: { region: 'us-east-1', ...forProvider }, writeConnectionSecretToRef: { name: `${name}-key` } },
  });
  const describeKey = async (plane: ControlPlane, keyName: string) => {
    const found = await plane.ec2.send(new DescribeKeyPairsCommand({ Filters: [{ Name: 'key-name', Values: [keyName] }] }));
    const key = found.KeyPairs?.[0];
    return JSON.stringify(key && { ...key, Tags: [...(key.Tags ?? [])].sort((a, b) => a.Key!.localeCompare(b.Key!)) });
  };

  it("refuses team-b's KeyPair naming team-a's key, publishes nothing of it, and deleting it leaves the key", async () => {
    await teamA.apply(keyPair('deploy', {}, { publicKeyMaterial: publicKeyMaterial(), tags: { team: 'a' } }));
    const owner = await teamA.ready('keypair', 'deploy');
    const keyName = owner.metadata.annotations![EXTERNAL_NAME]!;
    const before = await describeKey(teamA, keyName);
    expect(before).toContain(owner.metadata.uid);

    await teamB.apply(keyPair('taker', { annotations: { [EXTERNAL_NAME]: keyName } }));
    const message = `KeyPair ${keyName} belongs to KeyPair ${teamA.namespace}/deploy (uid ${owner.metadata.uid}): it is not adopted`;
    await eventually(async () => {
      const taker = await teamB.getObject('keypair', 'taker');
      return condition(taker, 'Synced')?.message === message && condition(taker, 'Ready')?.status === 'False';
    }, `team-b's KeyPair to be refused with "${message}"`);
    await teamB.failedPasses(workflowIdFor(refFor(keyPairApi, teamB.namespace, 'taker')), 2);
    // Not even the public details of team-a's key reach team-b's Secret.
    await expect(teamB.kubectl(['get', 'secret', 'taker-key', '-o', 'name'])).rejects.toThrow(/NotFound/);
    expect(await describeKey(teamA, keyName)).toBe(before);

    await teamB.kubectl(['delete', 'keypair', 'taker', '--wait=false']);
    await eventually(async () => (await teamB.getObject('keypair', 'taker')) === undefined, "team-b's KeyPair to be gone");
    expect(await describeKey(teamA, keyName)).toBe(before);
    await teamA.ready('keypair', 'deploy');
    await teamA.kubectl(['delete', 'keypair', 'deploy']);
  });
});
