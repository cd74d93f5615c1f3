// A VPC from apply to Ready to deleted, with the worker and the watcher on Temporal's own server
// as operators run it (PostgreSQL for persistence and visibility, mutual TLS on the frontend,
// the search attributes registered with the CLI), not on the dev server. They reach it the way
// a deployment would: TEMPORAL_* environment configuration only (runtime/temporal-connection.ts).
// The server is this file's own; kube and moto are the integration run's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlane, eventually, vpcManifest } from './harness';
import { startTemporalOnPostgres, type TemporalOnPostgres, type TemporalServer } from '#stack/temporal-server';
import { temporalSettingsFromEnv } from '#runtime/temporal-connection';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import {
  ResourceKindKey,
  ResourceNameKey,
  ResourceNamespaceKey,
  ReadyKey,
  SEARCH_ATTRIBUTE_NAMES,
  SyncedKey,
} from '#contract/search-attributes';

let dir: string;
let temporal: TemporalOnPostgres | undefined;
let server: TemporalServer | undefined;
let plane: ControlPlane | undefined;
let connection: Connection | undefined;
let production: Client;

// The first run on a machine builds the server from Go modules (see stack/install.ts).
const FIRST_BUILD_MS = 40 * 60_000;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoplane-production-temporal-'));
  temporal = await startTemporalOnPostgres(dir);
  server = temporal.server;
  plane = await ControlPlane.start('prod-temporal', server.clientEnv);
  // The test's own client reads the same variables the worker does, and decrypts as it encrypts.
  connection = await Connection.connect(temporalSettingsFromEnv(server.clientEnv).connectionOptions());
  production = new Client({ connection, namespace: server.namespace, dataConverter: { payloadCodecs: [plane.codec] } });
}, FIRST_BUILD_MS);

afterAll(async () => {
  await plane?.stop();
  await connection?.close();
  await temporal?.stop();
  if (process.env.CHRONOPLANE_KEEP_TEST_STACK !== '1') await rm(dir, { recursive: true, force: true });
});

describe(`a production Temporal server on PostgreSQL, over mutual TLS`, () => {
  it('has the five search attributes registered, as `temporal operator search-attribute list` shows', async () => {
    const { customAttributes } = await connection!.operatorService.listSearchAttributes({ namespace: server!.namespace });
    expect(Object.keys(customAttributes ?? {})).toEqual(expect.arrayContaining(SEARCH_ATTRIBUTE_NAMES));
  });

  it('answers a client with the certificate, and not one without it or one in plain text', async () => {
    const describeWith = async (env: Record<string, string>) => {
      const client = await Connection.connect({ ...temporalSettingsFromEnv(env).connectionOptions(), connectTimeout: 3_000 });
      try {
        return (await client.workflowService.describeNamespace({ namespace: server!.namespace })).namespaceInfo?.name;
      } finally {
        await client.close();
      }
    };
    const noCertificate = { TEMPORAL_TLS_CLIENT_CERT_PATH: '', TEMPORAL_TLS_CLIENT_KEY_PATH: '' };
    expect(await describeWith(server!.clientEnv)).toBe(server!.namespace);
    await expect(describeWith({ ...server!.clientEnv, ...noCertificate })).rejects.toThrow(/Failed to connect/);
    await expect(describeWith({ TEMPORAL_ADDRESS: server!.address, TEMPORAL_NAMESPACE: server!.namespace })).rejects.toThrow(
      /Failed to connect/,
    );
  });

  it('reconciles a VPC to Ready, findable by its search attributes, and deletes it at EC2', async () => {
    const name = 'production-temporal';
    await plane!.apply(vpcManifest(name, { cidrBlock: '10.42.0.0/16', tags: { suite: 'production-temporal' } }));
    const vpc = await plane!.ready('vpc', name, 120_000);
    const vpcId = vpc.metadata.annotations!['crossplane.io/external-name']!;
    expect(vpcId).toMatch(/^vpc-/);
    expect(await plane!.describeVpc(vpcId)).toBeDefined();

    const workflowId = workflowIdFor(refFor(vpcApi, plane!.namespace, name));
    const query = `ResourceKind = "VPC" AND ResourceNamespace = "${plane!.namespace}" AND ResourceName = "${name}" AND Ready = "True" AND Synced = "True"`;
    await eventually(async () => {
      const ids: string[] = [];
      for await (const workflow of production.workflow.list({ query })) ids.push(workflow.workflowId);
      return ids.length === 1 && ids[0] === workflowId;
    }, 'the workflow to be listed by its search attributes in PostgreSQL visibility');
    const description = await production.workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.typedSearchAttributes.get(ResourceKindKey)).toBe('VPC');
    expect(description.typedSearchAttributes.get(ResourceNamespaceKey)).toBe(plane!.namespace);
    expect(description.typedSearchAttributes.get(ResourceNameKey)).toBe(name);
    expect(description.typedSearchAttributes.get(ReadyKey)).toBe('True');
    expect(description.typedSearchAttributes.get(SyncedKey)).toBe('True');
    // It ran here and nowhere else: the dev server the rest of the run uses has never heard of it.
    await expect(plane!.temporal.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    await plane!.kubectl(['delete', 'vpc', name, '--wait=false']);
    await eventually(
      async () => !(await plane!.getVpc(name)) && !(await plane!.describeVpc(vpcId)),
      'the object and its VPC at EC2 to be gone',
      120_000,
    );
    // The workflow ends with the object.
    await production.workflow.getHandle(workflowId).result();
  });
});
