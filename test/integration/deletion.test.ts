// Deletion never needs more than it must (issue 21). An object that never had an external
// resource, or that orphans it, is released without reaching its provider, so a broken
// ProviderConfig or kubeconfig cannot hold it. One whose external resource the provider must
// delete waits, saying why, until the provider works again or `deletionPolicy: Orphan` lets it go.
// And a create whose endpoint never answers says Unavailable, naming the region and endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteVpcCommand } from '@aws-sdk/client-ec2';
import { ControlPlane, condition, eventually, vpcManifest, type VpcObject } from './harness';
import { TcpRelay } from './tcp-relay';
import { workflowIdFor, refFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';

const FINALIZER = 'finalizer.managedresource.crossplane.io';
const M_OBJECTS = 'objects.kubernetes.m.crossplane.io';
const VPCS = 'vpcs.ec2.aws.chronoplane.io';
/** Released without the provider means within a pass or two: far less than a backoff. */
const WITHIN_SECONDS = 10_000;

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('deletion');
});
afterAll(async () => {
  await plane?.stop();
});

const credentialsFile = (profile: string) => `[${profile}]\naws_access_key_id = ${plane.namespace}\naws_secret_access_key = testing\n`;

/** A namespaced AWS ProviderConfig for moto (or `endpoint`), reading Secret `<name>-aws`, which is made only when `credentials` is given. */
async function awsProviderConfig(name: string, { credentials, endpoint }: { credentials?: string; endpoint?: string } = {}) {
  const secretName = `${name}-aws`;
  const items: object[] = [
    {
      apiVersion: 'aws.chronoplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { namespace: plane.namespace, name },
      spec: {
        credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: secretName, key: 'credentials' } },
        endpoint: { url: endpoint ?? plane.ec2Endpoint },
      },
    },
  ];
  if (credentials !== undefined) {
    items.unshift({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: plane.namespace, name: secretName },
      stringData: { credentials },
    });
  }
  await plane.apply({ apiVersion: 'v1', kind: 'List', items });
}

const using = (kind: 'ProviderConfig' | 'ClusterProviderConfig', name: string) => ({ spec: { providerConfigRef: { kind, name } } });

/** Waits for Synced=False with our finalizer on: the object's workflow has seen it and could not reach its provider. */
async function refused(kind: string, name: string): Promise<VpcObject> {
  return eventually(async () => {
    const found = await plane.getObject(kind, name);
    return condition(found, 'Synced')?.status === 'False' && found?.metadata.finalizers?.includes(FINALIZER) && found;
  }, `${kind} ${name} to be Synced=False with our finalizer`);
}

async function deleteAndWaitGone(kind: string, name: string, timeoutMs = WITHIN_SECONDS): Promise<void> {
  await plane.kubectl(['delete', kind, name, '--wait=false']);
  await eventually(async () => (await plane.getObject(kind, name)) === undefined, `${kind} ${name} to be gone`, timeoutMs);
}

describe('an object never created, whose provider is broken, deletes within seconds', () => {
  it('a VPC naming a ClusterProviderConfig that does not exist', async () => {
    await plane.apply(vpcManifest('no-config', { cidrBlock: '10.60.0.0/16' }, using('ClusterProviderConfig', `${plane.namespace}-none`)));
    const vpc = await refused(VPCS, 'no-config');
    expect(condition(vpc, 'Synced')?.message).toContain(`cannot get ClusterProviderConfig "${plane.namespace}-none": not found`);
    await deleteAndWaitGone(VPCS, 'no-config');
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });

  it('a VPC whose ProviderConfig’s credentials Secret does not exist', async () => {
    await awsProviderConfig('no-secret');
    await plane.apply(vpcManifest('no-secret', { cidrBlock: '10.61.0.0/16' }, using('ProviderConfig', 'no-secret')));
    const vpc = await refused(VPCS, 'no-secret');
    expect(condition(vpc, 'Synced')?.message).toContain(`Secret ${plane.namespace}/no-secret-aws not found`);
    await deleteAndWaitGone(VPCS, 'no-secret');
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });

  it('a VPC whose credentials file has no profile of the name the ProviderConfig uses', async () => {
    await awsProviderConfig('no-profile', { credentials: credentialsFile('someone-else') });
    await plane.apply(vpcManifest('no-profile', { cidrBlock: '10.62.0.0/16' }, using('ProviderConfig', 'no-profile')));
    const vpc = await refused(VPCS, 'no-profile');
    expect(condition(vpc, 'Synced')?.message).toContain(
      'credentials file has no aws_access_key_id and aws_secret_access_key in profile [default]',
    );
    await deleteAndWaitGone(VPCS, 'no-profile');
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });

  it('a kubernetes.m.crossplane.io Object whose ProviderConfig’s kubeconfig Secret does not exist', async () => {
    await plane.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: 'no-kubeconfig' },
      spec: { credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: 'no-kubeconfig', key: 'kubeconfig' } } },
    });
    await plane.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: { name: 'no-kubeconfig' },
      spec: {
        forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', data: { key: 'value' } } },
        providerConfigRef: { kind: 'ProviderConfig', name: 'no-kubeconfig' },
      },
    });
    const object = await refused(M_OBJECTS, 'no-kubeconfig');
    expect(condition(object, 'Synced')?.message).toMatch(new RegExp(`of Secret ${plane.namespace}/no-kubeconfig .*not found`));
    await deleteAndWaitGone(M_OBJECTS, 'no-kubeconfig');
  });
});

describe('an object whose external resource the provider must delete', () => {
  it('waits in Deleting, naming the error, while its ProviderConfig is broken; deletionPolicy Orphan releases it at once', async () => {
    await awsProviderConfig('breaks-later', { credentials: credentialsFile('default') });
    await plane.apply(vpcManifest('breaks-later', { cidrBlock: '10.63.0.0/16' }, using('ProviderConfig', 'breaks-later')));
    const created = await plane.ready(VPCS, 'breaks-later');
    const vpcId = created.metadata.annotations!['crossplane.io/external-name']!;
    try {
      // Broken under a Ready VPC: the kind's sweep finds its scope failing and wakes it.
      await plane.kubectl(['delete', 'secret', 'breaks-later-aws']);
      await eventually(
        async () => condition(await plane.getVpc('breaks-later'), 'Synced')?.status === 'False',
        'Synced=False once the Secret is gone',
      );

      await plane.kubectl(['delete', 'vpc', 'breaks-later', '--wait=false']);
      const waiting = await eventually(async () => {
        const v = await plane.getVpc('breaks-later');
        return condition(v, 'Ready')?.reason === 'Deleting' && v;
      }, 'Ready=False, reason Deleting');
      const missingSecret = `Secret ${plane.namespace}/breaks-later-aws not found`;
      expect(condition(waiting, 'Ready')).toMatchObject({ status: 'False', reason: 'Deleting' });
      expect(condition(waiting, 'Ready')?.message).toContain(missingSecret);
      expect(condition(waiting, 'Ready')?.message).toContain('deletionPolicy: Orphan');
      expect(condition(waiting, 'Synced')).toMatchObject({ status: 'False', reason: 'ReconcileError' });
      expect(condition(waiting, 'Synced')?.message).toContain(missingSecret);

      // It keeps waiting, backing off (three failures put the next pass 20 s away) …
      await plane.failedPasses(workflowIdFor(refFor(vpcApi, plane.namespace, 'breaks-later')), 3);
      expect((await plane.getVpc('breaks-later'))?.metadata.finalizers).toContain(FINALIZER);
      expect((await plane.describeVpc(vpcId))?.State).toBe('available');

      // … until the patch, a spec change the watcher signals: released in its pass, not the backoff's.
      await plane.kubectl([
        'patch',
        'vpc',
        'breaks-later',
        '--type',
        'merge',
        '-p',
        JSON.stringify({ spec: { deletionPolicy: 'Orphan' } }),
      ]);
      await eventually(
        async () => (await plane.getVpc('breaks-later')) === undefined,
        'the orphaned VPC object to be gone',
        WITHIN_SECONDS,
      );
      expect((await plane.describeVpc(vpcId))?.State).toBe('available');
    } finally {
      if (await plane.describeVpc(vpcId)) await plane.ec2.send(new DeleteVpcCommand({ VpcId: vpcId }));
    }
  });
});

describe('a create whose endpoint never answers', () => {
  it('reports Ready=False, reason Unavailable, naming the region and endpoint, and Synced=False', async () => {
    const relay = await TcpRelay.start(plane.ec2Endpoint);
    await relay.close(); // closed from the start: nothing ever answers there
    await awsProviderConfig('silent', { credentials: credentialsFile('default'), endpoint: relay.url });
    await plane.apply(vpcManifest('silent', { cidrBlock: '10.64.0.0/16' }, using('ProviderConfig', 'silent')));
    const silent = await eventually(async () => {
      const v = await plane.getVpc('silent');
      return condition(v, 'Synced')?.status === 'False' && v;
    }, 'Synced=False while the endpoint does not answer');
    const unreachable = `cannot reach EC2 in region us-east-1 at ${relay.url}`;
    expect(condition(silent, 'Ready')).toMatchObject({ status: 'False', reason: 'Unavailable' });
    expect(condition(silent, 'Ready')?.message).toContain(unreachable);
    expect(condition(silent, 'Ready')?.message).toContain('ECONNREFUSED');
    expect(condition(silent, 'Synced')).toMatchObject({ status: 'False', reason: 'ReconcileError' });
    expect(condition(silent, 'Synced')?.message).toContain(unreachable);
    expect(await plane.vpcsTaggedWithUid(silent.metadata.uid)).toEqual([]);

    // Its create was asked for, so its deletion asks the provider; a VPC never recorded has
    // nothing to look up there, and it goes (once the create attempt in flight has given up).
    await deleteAndWaitGone(VPCS, 'silent', 60_000);
  });
});
