// The peer for Objects: Crossplane's provider-kubernetes v1.2.1, which the benchmark runs side by
// side with Chronoplane's Object kind. Like provider-aws (provider-aws.ts) it is built from Go
// modules into the cache and run against a kube-apiserver of its own: both serve the group
// kubernetes.crossplane.io, so it cannot share ours. Its Objects land in a target cluster reached
// through a kubeconfig Secret, normally one of the remote clusters (stack/remote-clusters.ts).
//
// Building it: `go install …/cmd/provider@v1.2.1` works (the module has no replace directives and
// the proxy serves it), so unlike provider-aws it needs no build-only module under tools/.
import { chmod, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kubeconfigPathOf, startKubeCluster } from '#stack/kube';
import { kubectl } from '#stack/kubectl';
import { binDir, cacheDir } from '#stack/paths';
import { startProcess, type ManagedProcess } from '#stack/processes';
import { progress } from '#stack/progress';
import { waitUntilReady } from '#stack/readiness';
import { commandExists, runCommand } from '#stack/run-command';
import { isExecutable, readStamp } from '#stack/stamps';
import { assertPortFree, copyCrds, distinctFreePorts, providerEnvironment, writeServingCertDir, yamlFiles } from './support';

const PROVIDER_KUBERNETES_MODULE = 'github.com/crossplane-contrib/provider-kubernetes';
export const PROVIDER_KUBERNETES_VERSION = 'v1.2.1';

interface ProviderKubernetesBuild {
  binary: string;
  /** Every CRD the provider serves, spec.conversion removed. */
  crdDir: string;
  /** A read-only copy of the module's examples/ (cluster/object/, namespaced/object/, …). */
  examplesDir: string;
}

function buildPaths(): ProviderKubernetesBuild {
  const root = join(cacheDir(), 'provider-kubernetes');
  return { binary: join(binDir(), 'provider-kubernetes'), crdDir: join(root, 'crds'), examplesDir: join(root, 'examples') };
}

/**
 * Builds provider-kubernetes into the cache's bin dir and copies its CRDs and examples next to
 * it. The stamp names module and version, so reruns take no time and a new version rebuilds.
 */
export async function ensureProviderKubernetes(): Promise<ProviderKubernetesBuild> {
  const build = buildPaths();
  const stamp = join(binDir(), 'provider-kubernetes.stamp');
  const wanted = `${PROVIDER_KUBERNETES_MODULE}/cmd/provider@${PROVIDER_KUBERNETES_VERSION}`;
  const complete = (await yamlFiles(build.crdDir)).length > 0 && (await isDirectory(build.examplesDir));
  if ((await isExecutable(build.binary)) && (await readStamp(stamp)) === wanted && complete) return build;

  if (!(await commandExists('go'))) {
    throw new Error('the Go toolchain (>= 1.24) is needed to build provider-kubernetes, but `go` is not on PATH');
  }
  progress(`building Crossplane's provider-kubernetes ${PROVIDER_KUBERNETES_VERSION} (first run only: a few minutes on 2 cores)…`);
  await mkdir(binDir(), { recursive: true });
  // A stale stamp must not survive a failed rebuild.
  await rm(stamp, { force: true });
  const logFile = join(cacheDir(), 'provider-kubernetes-build.log');
  progress(`  build log: ${logFile}`);
  // `go install` names the binary after its package directory (`provider`), so it goes to a
  // staging GOBIN of its own and is renamed; a bare `provider` in bin/ would say nothing.
  const gobin = join(cacheDir(), 'provider-kubernetes', 'gobin');
  await mkdir(gobin, { recursive: true });
  await runCommand('go', ['install', '-trimpath', '-ldflags=-s -w', wanted], { env: { ...process.env, GOBIN: gobin }, logFile });
  await rename(join(gobin, 'provider'), build.binary);
  await rm(gobin, { recursive: true, force: true });

  // The module's source is in the module cache now; `go mod download` only says where.
  const moduleRef = `${PROVIDER_KUBERNETES_MODULE}@${PROVIDER_KUBERNETES_VERSION}`;
  const { stdout } = await runCommand('go', ['mod', 'download', '-json', moduleRef], { cwd: cacheDir() });
  const moduleDir = (JSON.parse(stdout) as { Dir: string }).Dir;
  await copyCrds(join(moduleDir, 'package', 'crds'), build.crdDir);
  await copyReadOnlyTree(join(moduleDir, 'examples'), build.examplesDir);
  await writeFile(stamp, wanted);
  return build;
}

/**
 * Copies a tree out of the module cache with files read-only (tests must apply, not edit, the
 * examples) but directories writable, so the next rebuild can replace it without a fight.
 */
async function copyReadOnlyTree(from: string, to: string): Promise<void> {
  await makeWritable(to);
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true });
  const walk = async (dir: string): Promise<void> => {
    await chmod(dir, 0o755);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else await chmod(path, 0o444);
    }
  };
  await walk(to);
}

async function makeWritable(dir: string): Promise<void> {
  if (!(await isDirectory(dir))) return;
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(dir, entry.name));
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

interface ProviderKubernetesOptions {
  /** Holds the peer's own cluster (kube/), its serving certificate (tls/) and its log. */
  dir: string;
  /**
   * Kubeconfig, credentials embedded, of the cluster its Objects land in (see
   * remoteClusterKubeconfig). Default: the peer's own cluster.
   */
  targetKubeconfig?: string;
  /** How often a Ready Object is observed again (`--poll`, default 10m in the provider). Default 10s. */
  pollInterval?: string;
  /** More flags, e.g. ['--enable-watches'] or ['--max-reconcile-rate=10']. */
  extraArgs?: string[];
}

export interface ProviderKubernetesPeer {
  /** Admin kubeconfig of the peer's own kube-apiserver: apply Objects here. */
  kubeconfigPath: string;
  server: string;
  /** The module's examples/, to apply verbatim (they use ProviderConfig `kubernetes-provider`). */
  examplesDir: string;
  logFile: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * The Secret holding the target's kubeconfig, named as in the module's examples, and the
 * ProviderConfig names created for it: `default`, and the examples' `kubernetes-provider` so
 * that they apply verbatim. Both for cluster-scoped Objects (ProviderConfig) and namespaced ones
 * (ClusterProviderConfig).
 */
const PROVIDER_KUBERNETES_TARGET_SECRET = { namespace: 'crossplane-system', name: 'cluster-config', key: 'kubeconfig' } as const;
export const PROVIDER_KUBERNETES_CONFIG_NAMES = ['default', 'kubernetes-provider'] as const;

/** controller-runtime's defaults, which provider-kubernetes has no flags for. */
const FIXED_PORTS = [
  { port: 8080, what: "provider-kubernetes's metrics server" },
  { port: 9443, what: "provider-kubernetes's webhook server (conversion of Object v1alpha1)" },
];
const PROBE_NAME = 'chronoplane-readiness-probe';

/**
 * Starts provider-kubernetes against a fresh kube-apiserver of its own (with etcd and
 * kube-controller-manager), with its CRDs, the target's kubeconfig Secret and ProviderConfigs.
 * Resolves once it reconciles: a probe Object wrapping a ConfigMap became Ready and was deleted.
 * Everything runs as children of this process and dies with it.
 */
export async function startProviderKubernetes(options: ProviderKubernetesOptions): Promise<ProviderKubernetesPeer> {
  // Built first and on its own: one Go build at a time (the cluster may build kube-apiserver).
  const build = await ensureProviderKubernetes();
  for (const { port, what } of FIXED_PORTS) await assertPortFree(port, what);
  const [apiserverPort, etcdClientPort, etcdPeerPort] = await distinctFreePorts(3);
  const kubeDir = join(options.dir, 'kube');
  const cluster = await startKubeCluster({
    dir: kubeDir,
    name: 'provider-kubernetes',
    apiserverPort: apiserverPort!,
    etcdClientPort: etcdClientPort!,
    etcdPeerPort: etcdPeerPort!,
    detached: false,
  });
  const { kubeconfigPath } = cluster;
  const logFile = join(options.dir, 'logs', 'provider-kubernetes.log');
  let provider: ManagedProcess | undefined;
  const stop = async () => {
    await provider?.stop();
    await cluster.stop();
  };
  try {
    await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', build.crdDir]);
    await kubectl(kubeconfigPath, ['wait', '--for=condition=Established', '--timeout=120s', '-f', build.crdDir]);
    const target = options.targetKubeconfig ?? (await readFile(kubeconfigPathOf(kubeDir), 'utf8'));
    await applyProviderConfigs(kubeconfigPath, target);
    const tlsDir = join(options.dir, 'tls');
    await writeServingCertDir(join(kubeDir, 'pki'), tlsDir);

    const pidFile = join(options.dir, 'run', 'provider-kubernetes.pid');
    provider = await startProcess({
      name: 'provider-kubernetes',
      command: build.binary,
      args: [
        `--poll=${options.pollInterval ?? '10s'}`,
        // Off already by default; said explicitly because a standalone run has no peers to elect among.
        '--no-leader-election',
        // Its health server would take :8081, which nothing here asks.
        '--health-probe-bind-addr=0',
        ...(options.extraArgs ?? []),
      ],
      env: { ...providerEnvironment(), KUBECONFIG: kubeconfigPath, TLS_SERVER_CERTS_DIR: tlsDir },
      logFile,
      pidFile,
      detached: false,
    });
    await applyProbeObject(kubeconfigPath);
    await waitUntilReady({
      name: 'provider-kubernetes',
      probe: () => probeObjectReady(kubeconfigPath),
      logFile,
      pidFile,
      timeoutMs: 180_000,
    });
    // Deleting waits for the provider to delete the ConfigMap and drop its finalizer: ~30 s, as an
    // Object that is not Ready (Deleting) is checked again only every 30 s (its poll-interval hook).
    await kubectl(kubeconfigPath, ['delete', 'objects.kubernetes.crossplane.io', PROBE_NAME, '--wait=true', '--timeout=120s']);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kubeconfigPath, server: cluster.server, examplesDir: build.examplesDir, logFile, process: provider, stop };
}

/** Sent on stdin, never as an argument: the kubeconfig holds a client key. */
async function applyProviderConfigs(kubeconfigPath: string, targetKubeconfig: string): Promise<void> {
  const { namespace, name, key } = PROVIDER_KUBERNETES_TARGET_SECRET;
  const credentials = { source: 'Secret', secretRef: { namespace, name, key } };
  const manifests = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name }, type: 'Opaque', stringData: { [key]: targetKubeconfig } },
    ...PROVIDER_KUBERNETES_CONFIG_NAMES.flatMap((configName) => [
      { apiVersion: 'kubernetes.crossplane.io/v1alpha1', kind: 'ProviderConfig', metadata: { name: configName }, spec: { credentials } },
      {
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ClusterProviderConfig',
        metadata: { name: configName },
        spec: { credentials },
      },
    ]),
  ];
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], manifests.map((manifest) => stringify(manifest)).join('---\n'));
}

async function applyProbeObject(kubeconfigPath: string): Promise<void> {
  const probe = {
    apiVersion: 'kubernetes.crossplane.io/v1alpha2',
    kind: 'Object',
    metadata: { name: PROBE_NAME },
    spec: {
      forProvider: {
        manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: PROBE_NAME, namespace: 'default' }, data: { probe: 'true' } },
      },
      providerConfigRef: { name: 'default' },
    },
  };
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], JSON.stringify(probe));
}

async function probeObjectReady(kubeconfigPath: string): Promise<boolean> {
  const { stdout } = await kubectl(kubeconfigPath, ['get', 'objects.kubernetes.crossplane.io', PROBE_NAME, '-o', 'json']);
  const conditions = (JSON.parse(stdout) as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions;
  return conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
}
