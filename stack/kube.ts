// A real single-node Kubernetes control plane without nodes: etcd, kube-apiserver
// and kube-controller-manager (namespace deletion, garbage collection, service
// accounts). Nothing runs pods; the cluster only stores and serves objects, which
// is all a control plane of custom resources needs. The same function starts the
// dev cluster, a second "remote" cluster, or a throwaway cluster for tests.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensureEtcd, ensureKubeBinaries } from './install';
import { writeKubeconfig } from './kubeconfig';
import { ensurePki, pkiPaths, type Pki } from './pki';
import { isRunning, stopProcess, type ManagedProcess } from './processes';
import { httpProbe, startUntilReady } from './readiness';

export interface KubeClusterOptions {
  /** Holds pki/, etcd data, kubeconfig, logs/ and run/; state survives restarts. */
  dir: string;
  /** Names the kubeconfig's cluster/user/context and the etcd member. */
  name: string;
  apiserverPort: number;
  etcdClientPort: number;
  etcdPeerPort: number;
  /** true: outlive this process (npm run up); false: die with it (tests). */
  detached: boolean;
  /**
   * Record every request of these user groups (for example `system:serviceaccounts:<ns>`) in
   * the API server's audit log (kubeAuditLogFile), at the Metadata level: who did which verb on
   * which resource, and the answer's code. Tests use it to show which verbs a role is used for.
   */
  auditUserGroups?: readonly string[];
}

interface KubeCluster {
  /** Admin kubeconfig (CN=chronoplane-admin, O=system:masters). */
  kubeconfigPath: string;
  server: string;
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

const SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The components in start order; stopping goes the other way. */
export const KUBE_COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager'] as const;
type KubeComponent = (typeof KUBE_COMPONENTS)[number];

export function kubeconfigPathOf(dir: string): string {
  return join(dir, 'kubeconfig');
}

/** The API server's audit log (JSON lines), when the cluster was started with `auditUserGroups`. */
export function kubeAuditLogFile(dir: string): string {
  return join(dir, 'logs', 'audit.log');
}

function auditPolicyFile(dir: string): string {
  return join(dir, 'audit-policy.yaml');
}

/** Metadata of the named groups' requests, nothing of anyone else's (an audit policy's rules match in order). */
function auditPolicy(userGroups: readonly string[]): string {
  return stringify({
    apiVersion: 'audit.k8s.io/v1',
    kind: 'Policy',
    omitStages: ['RequestReceived'],
    rules: [{ level: 'Metadata', userGroups: [...userGroups] }, { level: 'None' }],
  });
}

export function kubeLogFile(dir: string, component: KubeComponent): string {
  return join(dir, 'logs', `${component}.log`);
}

function pidFile(dir: string, component: KubeComponent): string {
  return join(dir, 'run', `${component}.pid`);
}

/** Where a component of the cluster in `dir` keeps its pid: to signal it from outside, as a chaos run does. */
export const kubePidFile = pidFile;

export async function startKubeCluster(options: KubeClusterOptions): Promise<KubeCluster> {
  const { dir, name, detached } = options;
  const [etcd, binaries] = await Promise.all([ensureEtcd(), ensureKubeBinaries()]);
  await mkdir(dir, { recursive: true });
  const pki = await ensurePki(join(dir, 'pki'));
  const server = `https://127.0.0.1:${options.apiserverPort}`;
  const kubeconfigPath = kubeconfigPathOf(dir);
  const controllerManagerKubeconfig = join(dir, 'controller-manager.kubeconfig');
  await writeKubeconfig({
    path: kubeconfigPath,
    name,
    server,
    caCertFile: pki.caCert,
    clientCertFile: pki.adminCert,
    clientKeyFile: pki.adminKey,
  });
  await writeKubeconfig({
    path: controllerManagerKubeconfig,
    name,
    server,
    caCertFile: pki.caCert,
    clientCertFile: pki.controllerManagerCert,
    clientKeyFile: pki.controllerManagerKey,
  });
  if (options.auditUserGroups) await writeFile(auditPolicyFile(dir), auditPolicy(options.auditUserGroups));
  const adminTls = { caFile: pki.caCert, certFile: pki.adminCert, keyFile: pki.adminKey };
  const spec = (component: KubeComponent, command: string, args: string[]) => ({
    name: component,
    command,
    args,
    logFile: kubeLogFile(dir, component),
    pidFile: pidFile(dir, component),
    detached,
  });

  const processes: ManagedProcess[] = [];
  try {
    processes.push(
      await startUntilReady(spec('etcd', etcd, etcdArgs(options)), {
        probe: httpProbe(`http://127.0.0.1:${options.etcdClientPort}/health`),
        timeoutMs: 30_000,
      }),
    );
    processes.push(
      await startUntilReady(spec('kube-apiserver', binaries.kubeApiserver, apiserverArgs(options, pki)), {
        probe: httpProbe(`${server}/readyz`, { tls: adminTls }),
        timeoutMs: 120_000,
      }),
    );
    // It serves nothing we can probe (--secure-port=0); the service-account
    // controller creating default/default shows that it is connected and working.
    processes.push(
      await startUntilReady(
        spec('kube-controller-manager', binaries.kubeControllerManager, controllerManagerArgs(options, pki, controllerManagerKubeconfig)),
        { probe: httpProbe(`${server}/api/v1/namespaces/default/serviceaccounts/default`, { tls: adminTls }), timeoutMs: 60_000 },
      ),
    );
  } catch (error) {
    // Leave nothing half-started behind a failed start in tests; a detached
    // start keeps what runs so that `status` and the logs can be inspected.
    if (!detached) await stopAll(processes);
    throw error;
  }
  return { kubeconfigPath, server, processes, stop: () => stopKubeCluster(dir) };
}

/**
 * Starts the cluster's kube-apiserver again, with the arguments it started with, if it is not
 * running (a crash, or a chaos run's SIGKILL), and waits until it serves; etcd and the controller
 * manager are left as they are, and the kubeconfigs are not rewritten, so readers never see
 * them half-written. `options` are the ones the cluster was started with.
 */
export async function ensureKubeApiserver(options: KubeClusterOptions): Promise<void> {
  const binaries = await ensureKubeBinaries();
  const pki = pkiPaths(join(options.dir, 'pki'));
  const apiserverSpec = {
    name: 'kube-apiserver',
    command: binaries.kubeApiserver,
    // SO_REUSEADDR, which kube-apiserver leaves off by default: the killed server's connections
    // linger in TIME_WAIT on its port for a minute, and without it the new one cannot bind.
    args: [...apiserverArgs(options, pki), '--permit-address-sharing'],
    logFile: kubeLogFile(options.dir, 'kube-apiserver'),
    pidFile: pidFile(options.dir, 'kube-apiserver'),
    detached: options.detached,
  };
  await startUntilReady(apiserverSpec, {
    probe: httpProbe(`https://127.0.0.1:${options.apiserverPort}/readyz`, {
      tls: { caFile: pki.caCert, certFile: pki.adminCert, keyFile: pki.adminKey },
    }),
    timeoutMs: 120_000,
  });
}

/** Stops whatever of the cluster in `dir` is running; its etcd data stays. */
export async function stopKubeCluster(dir: string): Promise<void> {
  for (const component of [...KUBE_COMPONENTS].reverse()) await stopProcess(pidFile(dir, component));
}

export async function kubeComponentRunning(dir: string, component: KubeComponent): Promise<boolean> {
  return isRunning(pidFile(dir, component));
}

async function stopAll(processes: ManagedProcess[]): Promise<void> {
  for (const managed of [...processes].reverse()) await managed.stop();
}

function etcdArgs(options: KubeClusterOptions): string[] {
  const clientUrl = `http://127.0.0.1:${options.etcdClientPort}`;
  const peerUrl = `http://127.0.0.1:${options.etcdPeerPort}`;
  return [
    `--name=${options.name}`,
    `--data-dir=${join(options.dir, 'etcd')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=${options.name}=${peerUrl}`,
    '--logger=zap',
    '--log-outputs=stderr',
    '--log-level=warn',
  ];
}

function apiserverArgs(options: KubeClusterOptions, pki: Pki): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${options.etcdClientPort}`,
    // Secure serving only, and only on loopback.
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${options.apiserverPort}`,
    `--cert-dir=${join(options.dir, 'pki')}`,
    `--tls-cert-file=${pki.apiserverCert}`,
    `--tls-private-key-file=${pki.apiserverKey}`,
    `--client-ca-file=${pki.caCert}`,
    '--authorization-mode=RBAC',
    `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
    `--service-account-key-file=${pki.serviceAccountPublicKey}`,
    `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    `--service-cluster-ip-range=${SERVICE_CLUSTER_IP_RANGE}`,
    // Lean for a 2-core machine: no request queuing machinery, and no reconciling of
    // the `kubernetes` Service's endpoints (there is no network to point them at).
    '--enable-priority-and-fairness=false',
    '--endpoint-reconciler-type=none',
    '--profiling=false',
    ...(options.auditUserGroups
      ? [
          `--audit-policy-file=${auditPolicyFile(options.dir)}`,
          `--audit-log-path=${kubeAuditLogFile(options.dir)}`,
          '--audit-log-format=json',
          // Written as requests complete, not batched, so a test reads what it just caused.
          '--audit-log-mode=blocking',
        ]
      : []),
  ];
}

function controllerManagerArgs(options: KubeClusterOptions, pki: Pki, kubeconfig: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    // Nothing needs its metrics or health endpoints, and a fixed port would stop
    // a second cluster on the same machine from starting.
    '--secure-port=0',
    '--leader-elect=false',
    // Deployments and ReplicaSets too, so a Deployment submitted to a remote cluster gets the
    // status a real cluster writes (pods stay Pending: there is no scheduler or kubelet); and
    // ClusterRole aggregation, which fills `admin`, `edit` and `view` with Chronoplane's kinds.
    '--controllers=namespace,garbagecollector,serviceaccount,serviceaccount-token,deployment,replicaset,clusterrole-aggregation',
    // Each controller acts as its own service account, bound by RBAC's bootstrap
    // roles (system:controller:namespace-controller, …), as in a real cluster.
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${pki.serviceAccountKey}`,
    `--root-ca-file=${pki.caCert}`,
    `--cluster-name=${options.name}`,
  ];
}
