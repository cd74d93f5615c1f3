// What an integration test file works with: its own Kubernetes namespace, and its own worker
// and watcher processes (real ones, started the way `npm run up` starts them) on its own task
// queue, against the servers global-setup started once for the whole run.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { inject } from 'vitest';
import { EC2Client, DescribeVpcsCommand, type Vpc } from '@aws-sdk/client-ec2';
import { Client, Connection } from '@temporalio/client';
import { parse } from 'yaml';
import { runKubectl } from './kubectl';
import { parsePayloadKeys } from '#runtime/payload-keys';
import { EncryptionCodec } from '#runtime/payload-codec';
import { decodeHistory } from '#runtime/history-payloads';
import { workflowIdFor } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import type { TestRemoteCluster } from '#stack/test-stack';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface VpcObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    generation: number;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec: Record<string, any>;
  status?: {
    atProvider?: Record<string, any>;
    conditions?: { type: string; status: string; reason: string; message?: string }[];
    observedGeneration?: number;
  };
}

export class ControlPlane {
  readonly ec2: EC2Client;
  readonly ec2Endpoint = inject('ec2Endpoint');
  private worker?: ChildProcess;
  private watcher?: ChildProcess;
  readonly logs: string[] = [];

  private constructor(
    readonly namespace: string,
    readonly taskQueue: string,
    readonly temporal: Client,
    private readonly connection: Connection,
    private readonly extraEnv: Record<string, string>,
    /** The payload codec's key: its worker, watcher and `temporal` client share it. */
    readonly payloadKey: string,
    readonly codec: EncryptionCodec,
  ) {
    this.ec2 = new EC2Client({
      region: 'us-east-1',
      endpoint: this.ec2Endpoint,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
  }

  /** `env` overrides the worker's and watcher's environment for the whole file. */
  static async start(label: string, env: Record<string, string> = {}): Promise<ControlPlane> {
    const suffix = randomBytes(3).toString('hex');
    const namespace = `it-${label}-${suffix}`;
    await runKubectl(['create', 'namespace', namespace]);
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    const payloadKey = randomBytes(32).toString('base64');
    const codec = new EncryptionCodec(parsePayloadKeys(payloadKey, 'the test key'));
    const temporal = new Client({ connection, dataConverter: { payloadCodecs: [codec] } });
    const plane = new ControlPlane(namespace, `it-${label}-${suffix}`, temporal, connection, env, payloadKey, codec);
    // With CHRONOPLANE_EMBEDDED_WATCHER=true the worker is the watcher too.
    const watcherProcess = env.CHRONOPLANE_EMBEDDED_WATCHER !== 'true';
    await Promise.all([plane.startWorker(), watcherProcess ? plane.startWatcher() : undefined]);
    return plane;
  }

  async stop(): Promise<void> {
    await Promise.all([this.stopWorker(), this.stopWatcher()]);
    await this.connection.close();
    this.ec2.destroy();
  }

  private env(extra: Record<string, string>): NodeJS.ProcessEnv {
    return {
      ...process.env,
      KUBECONFIG: inject('kubeconfigPath'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: 'default',
      CHRONOPLANE_TASK_QUEUE: this.taskQueue,
      CHRONOPLANE_WATCH_NAMESPACE: this.namespace,
      // Short polls keep drift tests quick; production defaults are a minute and 5 s.
      CHRONOPLANE_POLL_STEADY_SECONDS: '3',
      CHRONOPLANE_POLL_PENDING_SECONDS: '1',
      CHRONOPLANE_WORKER_METRICS_PORT: '0',
      CHRONOPLANE_WATCHER_METRICS_PORT: '0',
      CHRONOPLANE_WORKFLOW_BUNDLE: inject('workflowBundle'),
      CHRONOPLANE_PAYLOAD_KEY: this.payloadKey,
      ...this.extraEnv,
      ...extra,
    };
  }

  private async spawnComponent(entry: string, readyMessage: string, env: Record<string, string>): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: repoRoot,
      env: this.env(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        this.logs.push(text);
        if (text.includes(readyMessage)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) =>
        reject(new Error(`${entry} exited with ${code} before it was ready:\n${this.logs.slice(-20).join('')}`)),
      );
    });
    await ready;
    return child;
  }

  async startWorker(extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
    this.worker = await this.spawnComponent('worker/main.ts', 'worker started', extraEnv);
    return this.worker;
  }

  async startWatcher(): Promise<void> {
    this.watcher = await this.spawnComponent('watcher/main.ts', 'watcher started', {});
  }

  /**
   * One more worker or watcher on this file's task queue and namespace, for tests of several
   * workers or of watchers that elect a leader. Its output joins `logs`; the caller stops it.
   */
  async spawnExtra(component: 'worker' | 'watcher', env: Record<string, string> = {}): Promise<ChildProcess> {
    return component === 'worker'
      ? this.spawnComponent('worker/main.ts', 'worker started', env)
      : this.spawnComponent('watcher/main.ts', 'watcher started', env);
  }

  /**
   * A workflow's history with its payloads decrypted, as the Temporal UI shows it through the
   * codec endpoint. `temporal.workflow.getHandle(id).fetchHistory()` gives them encrypted.
   */
  async decodedHistory(workflowId: string) {
    return decodeHistory(await this.temporal.workflow.getHandle(workflowId).fetchHistory(), this.codec);
  }

  /** The ids of the workflows a visibility query finds (search attributes, as in the Temporal UI), sorted. */
  async workflowIds(query: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const workflow of this.temporal.workflow.list({ query })) ids.push(workflow.workflowId);
    return ids.sort();
  }

  /**
   * Waits until the workflow's passes have failed `count` times in a row, so that its backoff
   * (5, 10, 20, 40 s …) is known to be long: what happens sooner cannot have been a retry.
   */
  async failedPasses(workflowId: string, count: number, timeoutMs = 90_000): Promise<void> {
    const workflow = this.temporal.workflow.getHandle(workflowId);
    await eventually(
      async () => (await workflow.query(stateQuery)).consecutiveFailures >= count,
      `${count} failed passes of ${workflowId}`,
      timeoutMs,
    );
  }

  /** Waits for the worker to exit by itself (for example at a failpoint) and returns its exit code. */
  async workerExit(): Promise<number | null> {
    const worker = this.worker!;
    if (worker.exitCode !== null) return worker.exitCode;
    const [code] = (await once(worker, 'exit')) as [number | null];
    return code;
  }

  async stopWorker(): Promise<void> {
    await stopChild(this.worker);
    this.worker = undefined;
  }

  async stopWatcher(): Promise<void> {
    await stopChild(this.watcher);
    this.watcher = undefined;
  }

  async kubectl(args: string[], stdin?: string): Promise<string> {
    return runKubectl(['-n', this.namespace, ...args], stdin);
  }

  /** Sent as JSON: kubectl reads YAML 1.1, where an unquoted `yes` would become a boolean. */
  async apply(manifest: object): Promise<void> {
    await this.kubectl(['apply', '-f', '-'], JSON.stringify(manifest));
  }

  async getVpc(name: string): Promise<VpcObject | undefined> {
    try {
      return parse(await this.kubectl(['get', 'vpc', name, '-o', 'yaml'])) as VpcObject;
    } catch (error) {
      if (String(error).includes('NotFound')) return undefined;
      throw error;
    }
  }

  /** Any managed object, by kind (as kubectl names it) and name; undefined when absent. */
  async getObject(kind: string, name: string): Promise<VpcObject | undefined> {
    try {
      return JSON.parse(await this.kubectl(['get', kind, name, '-o', 'json'])) as VpcObject;
    } catch (error) {
      if (String(error).includes('NotFound')) return undefined;
      throw error;
    }
  }

  /** Waits for Ready=True and Synced=True and returns the object. */
  async ready(kind: string, name: string, timeoutMs?: number): Promise<VpcObject> {
    let last: VpcObject | undefined;
    try {
      return await eventually(
        async () => {
          const object = (last = await this.getObject(kind, name));
          return condition(object, 'Ready')?.status === 'True' && condition(object, 'Synced')?.status === 'True' && object;
        },
        `${kind} ${name} to be Ready and Synced`,
        timeoutMs,
      );
    } catch (error) {
      // The conditions say why, which is what a reader of a failed run needs first; then what
      // its workflow last did, in case it never got to write any.
      const conditions = JSON.stringify(last?.status?.conditions ?? null);
      throw new Error(`${(error as Error).message}; last conditions: ${conditions}; ${await this.workflowSummary(last)}`);
    }
  }

  /** The object's workflow as a short line: its status and last pass, or why they are unknown. */
  private async workflowSummary(object: VpcObject | undefined): Promise<string> {
    if (!object) return 'no object';
    const ref = { group: object.apiVersion.split('/')[0]!, kind: object.kind, namespace: this.namespace, name: object.metadata.name };
    try {
      const handle = this.temporal.workflow.getHandle(workflowIdFor(ref));
      const [description, state] = await Promise.all([handle.describe(), handle.query(stateQuery)]);
      const logged = this.logs
        .join('')
        .split('\n')
        .filter((line) => line.includes(`${ref.namespace}/${ref.name}`))
        .slice(-3);
      return `workflow ${description.status.name}, uid ${state.uid} (object ${object.metadata.uid}), ${state.passes} passes, last ${JSON.stringify(state.lastPass)}; last log lines about it: ${logged.join(' | ') || 'none'}`;
    } catch (error) {
      return `workflow ${workflowIdFor(ref)}: ${(error as Error).message}`;
    }
  }

  async vpcsTaggedWithUid(uid: string): Promise<Vpc[]> {
    const found = await this.ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:chronoplane.io/uid', Values: [uid] }] }));
    return found.Vpcs ?? [];
  }

  async describeVpc(vpcId: string): Promise<Vpc | undefined> {
    try {
      return (await this.ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs?.[0];
    } catch (error) {
      if ((error as { name?: string }).name?.includes('NotFound')) return undefined;
      throw error;
    }
  }
}

export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A remote cluster global-setup started (remote-1, remote-2): where Objects land. */
export function remoteCluster(name: string): TestRemoteCluster {
  const clusters = inject('remoteClusters');
  const cluster = clusters.find((candidate) => candidate.name === name);
  if (!cluster) throw new Error(`no remote cluster ${name}; the test stack has ${clusters.map((c) => c.name).join(', ')}`);
  return cluster;
}

/** kubectl against a remote cluster, as its admin. */
export async function remoteKubectl(name: string, args: string[], stdin?: string): Promise<string> {
  return runKubectl(args, stdin, remoteCluster(name).kubeconfigPath);
}

export function condition(vpc: VpcObject | undefined, type: string) {
  return vpc?.status?.conditions?.find((c) => c.type === type);
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function vpcManifest(
  name: string,
  forProvider: Record<string, unknown>,
  extra: { annotations?: Record<string, string>; spec?: Record<string, unknown> } = {},
) {
  return {
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'VPC',
    metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { forProvider: { region: 'us-east-1', ...forProvider }, ...extra.spec },
  };
}

/** Every string in a value, bytes as UTF-8, so nothing can hide in base64 or a Uint8Array. */
export function textOf(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(textOf).join('\n');
  return String(value);
}
