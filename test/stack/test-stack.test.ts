// Starts the real servers once, the way integration tests get them (startTestStack),
// and checks each one answers a real client: kubectl, Temporal's gRPC API, the AWS SDK.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTE_NAMES } from '../../workflows/search-attributes';
import { startTestStack, type TestStack } from '../../stack/test-stack';

const run = promisify(execFile);

describe('startTestStack', () => {
  let dir: string;
  let stack: TestStack;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-stack-test-'));
    // Generous: on a fresh machine this includes building kube-apiserver and temporal.
    stack = await startTestStack({ dir });
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

  it('stops every server', async () => {
    await stack.stop();
    const endpoints = [new URL(stack.kubeServer), new URL(stack.ec2Endpoint), new URL(`http://${stack.temporalAddress}`)];
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
