// The benchmark peer for Objects, provider-kubernetes v1.2.1, built and started the way the
// benchmark will (startProviderKubernetes), aimed at a remote cluster of the test stack: an Object
// applied to the peer's own API server must create its manifest in the remote cluster, and
// deleting the Object must delete it there again.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderKubernetes, type ProviderKubernetesPeer } from './provider-kubernetes';
import { eventually, remoteCluster, remoteKubectl } from '#test/integration/harness';
import { runKubectl } from '#test/integration/kubectl';

const TARGET = 'remote-1';

describe('provider-kubernetes peer', () => {
  let dir: string;
  let peer: ProviderKubernetesPeer;
  const peerKubectl = (args: string[], stdin?: string) => runKubectl(args, stdin, peer.kubeconfigPath);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-provider-kubernetes-'));
    // Generous: on a fresh machine this includes building the provider (minutes).
    peer = await startProviderKubernetes({ dir, targetKubeconfig: remoteCluster(TARGET).kubeconfig });
  }, 1_200_000);

  afterAll(async () => {
    await peer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('left nothing of its readiness probe in the target', async () => {
    await expect(remoteKubectl(TARGET, ['get', 'configmap', '-n', 'default', 'chronoplane-readiness-probe'])).rejects.toThrow(/NotFound/);
  });

  it('creates an Object’s ConfigMap in the target cluster and deletes it with the Object', async () => {
    const name = `pk-configmap-${randomBytes(3).toString('hex')}`;
    const object = {
      apiVersion: 'kubernetes.crossplane.io/v1alpha2',
      kind: 'Object',
      metadata: { name },
      spec: {
        forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' }, data: { greeting: 'hello' } } },
        providerConfigRef: { name: 'default' },
      },
    };
    await peerKubectl(['apply', '-f', '-'], JSON.stringify(object));

    // The manifest's name defaults to the Object's.
    const configMap = await eventually(
      async () => JSON.parse(await remoteKubectl(TARGET, ['get', 'configmap', '-n', 'default', name, '-o', 'json'])),
      `ConfigMap default/${name} in ${TARGET}`,
    );
    expect(configMap.data).toEqual({ greeting: 'hello' });
    await eventually(async () => {
      const applied = JSON.parse(await peerKubectl(['get', 'objects.kubernetes.crossplane.io', name, '-o', 'json']));
      return applied.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
    }, `Object ${name} to be Ready`);

    // The provider deletes the ConfigMap at once, but drops the Object's finalizer only at its next
    // look, 30 s later (it checks Objects that are not Ready every 30 s).
    await peerKubectl(['delete', 'objects.kubernetes.crossplane.io', name, '--wait=true', '--timeout=150s']);
    await expect(remoteKubectl(TARGET, ['get', 'configmap', '-n', 'default', name])).rejects.toThrow(/NotFound/);
  }, 300_000);

  it('applies the module’s own example verbatim: a Namespace, which the remote cluster deletes completely', async () => {
    // examples/cluster/object/object.yaml: Object sample-namespace wrapping a Namespace of the same
    // name, through the ProviderConfig `kubernetes-provider` the peer also creates.
    const example = join(peer.examplesDir, 'cluster', 'object', 'object.yaml');
    await access(example);
    await peerKubectl(['apply', '-f', example]);
    const namespace = await eventually(
      async () => JSON.parse(await remoteKubectl(TARGET, ['get', 'namespace', 'sample-namespace', '-o', 'json'])),
      `Namespace sample-namespace in ${TARGET}`,
    );
    expect(namespace.metadata.labels).toMatchObject({ example: 'true' });

    // Two 30 s looks when the first finds the Namespace still Terminating.
    await peerKubectl(['delete', '-f', example, '--wait=true', '--timeout=150s']);
    // Gone, not just Terminating: the remote cluster's namespace controller finished it.
    await eventually(
      async () =>
        remoteKubectl(TARGET, ['get', 'namespace', 'sample-namespace']).then(
          () => false,
          (error: Error) => /NotFound/.test(error.message),
        ),
      `Namespace sample-namespace to be gone from ${TARGET}`,
    );
  }, 300_000);
});
