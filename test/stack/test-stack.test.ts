// Starts the real servers once, the way integration tests get them (startTestStack),
// and checks each one answers a real client: kubectl, Temporal's gRPC API, the AWS SDK.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTE_NAMES } from '#contract/search-attributes';
import { REMOTE_CLUSTER_NAMES, startTestStack, type TestStack } from '#stack/test-stack';

const run = promisify(execFile);

describe('startTestStack', () => {
  let dir: string;
  let stack: TestStack;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-stack-test-'));
    // Generous: on a fresh machine this includes building kube-apiserver and temporal.
    stack = await startTestStack({ dir, remoteClusters: REMOTE_CLUSTER_NAMES });
  }, 1_200_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a ready kube-apiserver through the kubeconfig it wrote', async () => {
    const { stdout } = await run('kubectl', ['--kubeconfig', stack.kubeconfigPath, 'get', '--raw', '/readyz']);
    expect(stdout.trim()).toBe('ok');
  });

  it('runs the controller-manager (the service-account controller made default/default)', async () => {
    const { stdout } = await run('kubectl', ['--kubeconfig', stack.kubeconfigPath, 'get', 'serviceaccount', 'default', '-o', 'name']);
    expect(stdout.trim()).toBe('serviceaccount/default');
  });

  it('serves Temporal with the default namespace and the custom search attributes', async () => {
    const connection = await Connection.connect({ address: stack.temporalAddress });
    try {
      const described = await connection.workflowService.describeNamespace({ namespace: stack.temporalNamespace });
      expect(described.namespaceInfo?.name).toBe(stack.temporalNamespace);
      const attributes = await connection.operatorService.listSearchAttributes({ namespace: stack.temporalNamespace });
      expect(Object.keys(attributes.customAttributes ?? {})).toEqual(expect.arrayContaining(SEARCH_ATTRIBUTE_NAMES));
    } finally {
      await connection.close();
    }
  });

  it('serves EC2 from moto', async () => {
    const ec2 = new EC2Client({
      region: 'us-east-1',
      endpoint: stack.ec2Endpoint,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
    try {
      const { Vpcs } = await ec2.send(new DescribeVpcsCommand({}));
      // moto gives every region a default VPC.
      expect(Vpcs?.some((vpc) => vpc.IsDefault)).toBe(true);
    } finally {
      ec2.destroy();
    }
  });

  it('serves two remote clusters, each reachable through the kubeconfig in its Secret in the control cluster', async () => {
    expect(stack.remoteClusters.map((remote) => remote.name)).toEqual(['remote-1', 'remote-2']);
    for (const remote of stack.remoteClusters) {
      const { stdout: ready } = await run('kubectl', ['--kubeconfig', remote.kubeconfigPath, 'get', '--raw', '/readyz']);
      expect(ready.trim()).toBe('ok');
      const { stdout: secretData } = await run('kubectl', [
        ...['--kubeconfig', stack.kubeconfigPath, 'get', 'secret', '-n', remote.secret.namespace, remote.secret.name],
        ...['-o', 'jsonpath={.data.kubeconfig}'],
      ]);
      const kubeconfig = Buffer.from(secretData, 'base64').toString();
      expect(kubeconfig).toBe(remote.kubeconfig);
      // Only the Secret's content, no file beside it: what a controller reading the Secret has.
      const copy = join(dir, `${remote.name}-from-secret.kubeconfig`);
      await writeFile(copy, kubeconfig, { mode: 0o600 });
      const { stdout: server } = await run('kubectl', [
        '--kubeconfig',
        copy,
        'config',
        'view',
        '--minify',
        '-o',
        'jsonpath={.clusters[0].cluster.server}',
      ]);
      expect(server).toBe(remote.server);
      const { stdout: namespace } = await run('kubectl', ['--kubeconfig', copy, 'get', 'namespace', 'default', '-o', 'name']);
      expect(namespace.trim()).toBe('namespace/default');
    }
  });

  it('stops every server', async () => {
    await stack.stop();
    const endpoints = [
      new URL(stack.kubeServer),
      new URL(stack.ec2Endpoint),
      new URL(`http://${stack.temporalAddress}`),
      ...stack.remoteClusters.map((remote) => new URL(remote.server)),
    ];
    for (const endpoint of endpoints) {
      expect(await accepts(endpoint.hostname, Number(endpoint.port)), endpoint.href).toBe(false);
    }
  });
});

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
