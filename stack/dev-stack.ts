// The developer's stack behind `npm run up` / `down` / `status`: fixed ports,
// state under ~/.local/state/chronoplane, every server detached so `up` returns
// with everything running. Each start is skipped when that server already runs,
// which makes `up` safe to repeat; `down` stops processes and keeps their state.
// Besides the control cluster it runs two remote clusters, targets for Objects and workloads,
// whose kubeconfigs it stores as Secrets in the control cluster, registered as ProviderConfigs
// and, in namespace `complex` for examples/workload/, as KubernetesClusters.
import { join } from 'node:path';
import { bootstrapCluster } from './cluster-bootstrap';
import { DEV_CODEC_PORT, codecServerLogFile, codecServerRunning, codecServerUrl, startCodecServer, stopCodecServer } from './codec-server';
import {
  controllerLogFile,
  controllerRunning,
  startController,
  startWorkers,
  stopController,
  stopWorkers,
  workerIndex,
  workerInstances,
  workersUnder,
  type WorkerName,
} from './controllers';
import { ensureInstalled } from './install';
import { KUBE_COMPONENTS, kubeComponentRunning, kubeconfigPathOf, kubeLogFile, startKubeCluster, stopKubeCluster } from './kube';
import { motoLogFile, motoRunning, startMoto, stopMoto } from './moto';
import { stateDir } from './paths';
import { DEV_PORTS } from './ports';
import type { ManagedProcess } from './processes';
import { ensurePayloadKeyFile } from './payload-key';
import { progress } from './progress';
import {
  REMOTE_CLUSTER_SECRET_NAMESPACE,
  EXAMPLES_WORKLOAD_NAMESPACE,
  applyExampleKubernetesClusters,
  applyRemoteProviderConfigs,
  exampleKubernetesClusters,
  registerRemoteClusters,
  remoteClusterSecretName,
  startRemoteClusters,
  stopRemoteCluster,
  type RemoteClusterSpec,
} from './remote-clusters';
import { startTemporal, stopTemporal, temporalLogFile, temporalRunning } from './temporal';

const DEV_CLUSTER_NAME = 'chronoplane';

/** The first worker's metrics port; worker K serves its metrics on the K-1th port after it. */
const DEV_FIRST_WORKER_METRICS_PORT = 9465;

/** CHRONOPLANE_WORKERS: how many worker processes `up` runs on the task queue (default 1). */
export function workersWanted(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.CHRONOPLANE_WORKERS;
  if (value === undefined || value === '') return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`CHRONOPLANE_WORKERS must be a whole number of at least 1, not "${value}"`);
  return count;
}

function workerMetricsPort(name: WorkerName): number {
  return DEV_FIRST_WORKER_METRICS_PORT + workerIndex(name) - 1;
}

interface DevStackLayout {
  root: string;
  kubeDir: string;
  temporalDir: string;
  motoDir: string;
  controllersDir: string;
  codecDir: string;
  /** Two, each in `<root>/<name>` with fixed ports next to the control cluster's. */
  remoteClusters: RemoteClusterSpec[];
}

export function devStackLayout(root = stateDir()): DevStackLayout {
  return {
    root,
    kubeDir: join(root, 'kube'),
    temporalDir: join(root, 'temporal'),
    motoDir: join(root, 'moto'),
    controllersDir: join(root, 'controllers'),
    codecDir: join(root, 'codec'),
    remoteClusters: [
      { name: 'remote-1', dir: join(root, 'remote-1'), apiserverPort: 6444, etcdClientPort: 12381, etcdPeerPort: 12382 },
      { name: 'remote-2', dir: join(root, 'remote-2'), apiserverPort: 6445, etcdClientPort: 12383, etcdPeerPort: 12384 },
    ],
  };
}

export interface RemoteClusterEndpoint {
  name: string;
  server: string;
  /** Its admin kubeconfig, for kubectl. */
  kubeconfigPath: string;
  /** `<namespace>/<name>` of the Secret in the control cluster that holds its kubeconfig. */
  secret: string;
  /** `<namespace>/<name>` of the KubernetesCluster that examples/workload/ schedules to, if any. */
  kubernetesCluster?: string;
}

export interface DevStackEndpoints {
  kubeconfigPath: string;
  kubeServer: string;
  temporalAddress: string;
  temporalNamespace: string;
  temporalUiUrl: string;
  /** Decodes payloads for the Temporal UI (and `temporal --codec-endpoint`). */
  codecEndpoint: string;
  ec2Endpoint: string;
  /** The key every payload in Temporal is encrypted with. */
  payloadKeyFile: string;
  remoteClusters: RemoteClusterEndpoint[];
}

export async function upDevStack(layout = devStackLayout(), workers = workersWanted()): Promise<DevStackEndpoints> {
  await ensureInstalled();
  const payloadKeyFile = await ensurePayloadKeyFile(layout.root);
  const codecEndpoint = codecServerUrl(DEV_CODEC_PORT);
  const uiOrigins = [`http://127.0.0.1:${DEV_PORTS.temporalUi}`, `http://localhost:${DEV_PORTS.temporalUi}`];

  // The remote clusters start with the rest: on 2 cores that costs the control cluster a few
  // seconds of start-up, and nothing waits on them until their Secrets are written.
  const [kube, temporal, moto, codec, remotes] = await Promise.all([
    startKubeCluster({
      dir: layout.kubeDir,
      name: DEV_CLUSTER_NAME,
      apiserverPort: DEV_PORTS.kubeApiserver,
      etcdClientPort: DEV_PORTS.etcdClient,
      etcdPeerPort: DEV_PORTS.etcdPeer,
      detached: true,
    }),
    startTemporal({ dir: layout.temporalDir, port: DEV_PORTS.temporal, uiPort: DEV_PORTS.temporalUi, detached: true, codecEndpoint }),
    startMoto({ dir: layout.motoDir, port: DEV_PORTS.moto, detached: true }),
    startCodecServer({ dir: layout.codecDir, port: DEV_CODEC_PORT, keyFile: payloadKeyFile, allowedOrigins: uiOrigins }),
    startRemoteClusters(layout.remoteClusters, true),
  ]);
  for (const started of [...kube.processes, temporal.process, moto.process, codec]) reportStart(started);
  for (const remote of remotes) for (const started of remote.processes) reportStart(started, remote.name);

  await Promise.all([bootstrapCluster(kube.kubeconfigPath, moto.endpoint), registerRemoteClusters(kube.kubeconfigPath, remotes)]);
  await Promise.all([
    applyRemoteProviderConfigs(kube.kubeconfigPath, remotes),
    applyExampleKubernetesClusters(kube.kubeconfigPath, remotes),
  ]);

  const controllerEnvironment = {
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    kubeconfigPath: kube.kubeconfigPath,
    extra: { CHRONOPLANE_PAYLOAD_KEY_FILE: payloadKeyFile },
  };
  // Workers past the number wanted, left by an earlier `up` with more, stop first.
  for (const name of await stopWorkers(layout.controllersDir, workers)) progress(`${name}: stopped (CHRONOPLANE_WORKERS=${workers})`);
  const controllers = await Promise.all([
    startWorkers(layout.controllersDir, workerInstances(workers, DEV_FIRST_WORKER_METRICS_PORT), controllerEnvironment),
    startController(layout.controllersDir, 'watcher', controllerEnvironment).then((watcher) => [watcher]),
  ]);
  for (const started of controllers.flat()) reportStart(started);

  const exampleClusters = exampleKubernetesClusters(remotes);
  return {
    kubeconfigPath: kube.kubeconfigPath,
    kubeServer: kube.server,
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    temporalUiUrl: temporal.uiUrl,
    codecEndpoint,
    ec2Endpoint: moto.endpoint,
    payloadKeyFile,
    remoteClusters: remotes.map((remote) => ({
      name: remote.name,
      server: remote.server,
      kubeconfigPath: remote.kubeconfigPath,
      secret: `${REMOTE_CLUSTER_SECRET_NAMESPACE}/${remoteClusterSecretName(remote.name)}`,
      kubernetesCluster: exampleClusters
        .filter((example) => example.cluster.name === remote.name)
        .map((example) => `${EXAMPLES_WORKLOAD_NAMESPACE}/${example.name}`)[0],
    })),
  };
}

function reportStart(started: ManagedProcess, cluster?: string): void {
  const name = cluster ? `${cluster} ${started.name}` : started.name;
  progress(`${name}: ${started.wasAlreadyRunning ? 'already running' : 'started'} (pid ${started.pid})`);
}

/** Stops everything in the reverse order of `up`. All state stays on disk. */
export async function downDevStack(layout = devStackLayout()): Promise<void> {
  await stopController(layout.controllersDir, 'watcher');
  await stopWorkers(layout.controllersDir);
  await stopCodecServer(layout.codecDir);
  await stopMoto(layout.motoDir);
  await stopTemporal(layout.temporalDir);
  for (const remote of [...layout.remoteClusters].reverse()) await stopRemoteCluster(remote.dir);
  await stopKubeCluster(layout.kubeDir);
}

interface ComponentStatus {
  name: string;
  running: boolean;
  /** Where to reach it, if it serves anything. */
  url?: string;
  logFile: string;
}

export async function devStackStatus(layout = devStackLayout()): Promise<ComponentStatus[]> {
  const kubeUrls: Record<(typeof KUBE_COMPONENTS)[number], string | undefined> = {
    etcd: `http://127.0.0.1:${DEV_PORTS.etcdClient}`,
    'kube-apiserver': `https://127.0.0.1:${DEV_PORTS.kubeApiserver}`,
    'kube-controller-manager': undefined,
  };
  const statuses: ComponentStatus[] = [];
  for (const component of KUBE_COMPONENTS) {
    statuses.push({
      name: component,
      running: await kubeComponentRunning(layout.kubeDir, component),
      url: kubeUrls[component],
      logFile: kubeLogFile(layout.kubeDir, component),
    });
  }
  statuses.push({
    name: 'temporal',
    running: await temporalRunning(layout.temporalDir),
    url: `127.0.0.1:${DEV_PORTS.temporal} (UI http://127.0.0.1:${DEV_PORTS.temporalUi})`,
    logFile: temporalLogFile(layout.temporalDir),
  });
  statuses.push({
    name: 'moto',
    running: await motoRunning(layout.motoDir),
    url: `http://127.0.0.1:${DEV_PORTS.moto}`,
    logFile: motoLogFile(layout.motoDir),
  });
  statuses.push({
    name: 'codec-server',
    running: await codecServerRunning(layout.codecDir),
    url: codecServerUrl(DEV_CODEC_PORT),
    logFile: codecServerLogFile(layout.codecDir),
  });
  for (const remote of layout.remoteClusters) statuses.push(...(await remoteClusterStatus(remote)));
  // Every worker with a pid file, also those an earlier `up` with more workers left; `worker` always.
  const workers = new Set<WorkerName>(['worker', ...(await workersUnder(layout.controllersDir))]);
  for (const worker of workers) {
    statuses.push({
      name: worker,
      running: await controllerRunning(layout.controllersDir, worker),
      url: `http://127.0.0.1:${workerMetricsPort(worker)}/metrics`,
      logFile: controllerLogFile(layout.controllersDir, worker),
    });
  }
  statuses.push({
    name: 'watcher',
    running: await controllerRunning(layout.controllersDir, 'watcher'),
    logFile: controllerLogFile(layout.controllersDir, 'watcher'),
  });
  return statuses;
}

async function remoteClusterStatus(remote: RemoteClusterSpec): Promise<ComponentStatus[]> {
  const urls: Record<(typeof KUBE_COMPONENTS)[number], string | undefined> = {
    etcd: `http://127.0.0.1:${remote.etcdClientPort}`,
    'kube-apiserver': `https://127.0.0.1:${remote.apiserverPort} (kubeconfig ${kubeconfigPathOf(remote.dir)})`,
    'kube-controller-manager': undefined,
  };
  const statuses: ComponentStatus[] = [];
  for (const component of KUBE_COMPONENTS) {
    statuses.push({
      name: `${remote.name} ${component}`,
      running: await kubeComponentRunning(remote.dir, component),
      url: urls[component],
      logFile: kubeLogFile(remote.dir, component),
    });
  }
  return statuses;
}
