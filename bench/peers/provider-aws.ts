// Peers: other control planes that the benchmark runs side by side with Chronoplane, against
// the same moto. For now one: Crossplane's community EC2 provider, provider-aws v0.58.0 (its
// last release), built from source and run against a kube-apiserver of its own so that its
// API load is not mixed with ours.
//
// Building it: `go install …/cmd/provider@v0.58.0` fails because the module proxy refuses the
// module's version list, so tools/provider-aws is a build-only module that requires it, and
// `go build` builds ./cmd/provider from there (like tools/kube for Kubernetes).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startKubeCluster } from '#stack/kube';
import { kubectl } from '#stack/kubectl';
import { binDir, cacheDir, repoRoot } from '#stack/paths';
import { startProcess, type ManagedProcess } from '#stack/processes';
import { progress } from '#stack/progress';
import { waitUntilReady } from '#stack/readiness';
import { commandExists, runCommand } from '#stack/run-command';
import { isExecutable, readStamp } from '#stack/stamps';
import { assertPortFree, copyCrds, distinctFreePorts, providerEnvironment, writeServingCertDir, yamlFiles } from './support';

const PROVIDER_AWS_MODULE = 'github.com/crossplane-contrib/provider-aws';
export const PROVIDER_AWS_VERSION = 'v0.58.0';

const providerAwsModuleDir = join(repoRoot, 'tools', 'provider-aws');

/**
 * Modules whose checksums the checksum database does not serve (its lookup answers 404), so
 * verification against it fails. Exactly these are exempt (GONOSUMDB); go.sum still pins
 * their hashes, and every other module is checked against the database as usual.
 */
const NOT_IN_CHECKSUM_DATABASE = ['github.com/aws/aws-sdk-go-v2/service/route53resolver'];

interface ProviderAwsBuild {
  binary: string;
  /** Every CRD the provider serves (it will not start without all of them), spec.conversion removed. */
  crdDir: string;
}

/**
 * Builds provider-aws into the cache's bin dir and copies its CRDs next to it. The stamp is a
 * hash of tools/provider-aws/go.mod and go.sum, so reruns take no time and changing the pinned
 * version rebuilds. The build takes several minutes on 2 cores.
 */
export async function ensureProviderAws(): Promise<ProviderAwsBuild> {
  const build = { binary: join(binDir(), 'provider-aws'), crdDir: join(cacheDir(), 'provider-aws', 'crds') };
  const stamp = join(binDir(), 'provider-aws.stamp');
  const wanted = await providerAwsModuleHash();
  if ((await isExecutable(build.binary)) && (await readStamp(stamp)) === wanted && (await yamlFiles(build.crdDir)).length > 0) {
    return build;
  }

  if (!(await commandExists('go'))) {
    throw new Error('the Go toolchain (>= 1.24) is needed to build provider-aws, but `go` is not on PATH');
  }
  progress(`building Crossplane's provider-aws ${PROVIDER_AWS_VERSION} (first run only: several minutes on 2 cores)…`);
  await mkdir(binDir(), { recursive: true });
  // A stale stamp must not survive a failed rebuild.
  await rm(stamp, { force: true });
  const logFile = join(cacheDir(), 'provider-aws-build.log');
  progress(`  build log: ${logFile}`);
  const env = { ...process.env, GONOSUMDB: [process.env.GONOSUMDB, ...NOT_IN_CHECKSUM_DATABASE].filter(Boolean).join(',') };
  await runCommand(
    'go',
    // The binary must not depend on the state of this repo's work tree.
    ['build', '-buildvcs=false', '-trimpath', '-ldflags=-s -w', '-o', build.binary, `${PROVIDER_AWS_MODULE}/cmd/provider`],
    { cwd: providerAwsModuleDir, env, logFile },
  );
  const { stdout } = await runCommand('go', ['list', '-m', '-f', '{{.Dir}}', PROVIDER_AWS_MODULE], { cwd: providerAwsModuleDir, env });
  await copyCrds(join(stdout.trim(), 'package', 'crds'), build.crdDir);
  await writeFile(stamp, wanted);
  return build;
}

async function providerAwsModuleHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum']) hash.update(await readFile(join(providerAwsModuleDir, file)));
  return hash.digest('hex');
}

interface ProviderAwsOptions {
  /** Holds the peer's own cluster (kube/), its serving certificate (tls/) and its log. */
  dir: string;
  /** The EC2 endpoint (moto) its default ProviderConfig points at. */
  ec2Endpoint: string;
  /**
   * How often a Ready resource is observed again (`--poll`; the provider's default is 1m).
   * Default 10s, like the poll the benchmark gives Chronoplane's controllers.
   */
  pollInterval?: string;
  /** The access key id in its credentials Secret; moto accepts any, and counts calls by it. */
  accessKeyId?: string;
}

interface ProviderAwsPeer {
  /** Admin kubeconfig of the peer's own kube-apiserver. */
  kubeconfigPath: string;
  ec2Endpoint: string;
  /** The access key id its EC2 calls are signed with (see bench/ec2-call-counter.ts). */
  accessKeyId: string;
  logFile: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

const PROVIDER_AWS_ACCESS_KEY_ID = 'provider-aws';
const CREDENTIALS_SECRET = { namespace: 'crossplane-system', name: 'aws-credentials', key: 'credentials' } as const;
/** controller-runtime's default metrics address, which provider-aws has no flag to change. */
const PROVIDER_AWS_METRICS_PORT = 8080;
const READINESS_LABEL = 'chronoplane.dev/readiness-probe';

/**
 * Starts provider-aws against a fresh kube-apiserver of its own (with etcd and
 * kube-controller-manager), with all its CRDs, a credentials Secret and a ProviderConfig
 * named `default` aimed at `ec2Endpoint`. Resolves once its EC2 controllers reconcile.
 * Everything runs as children of this process and dies with it.
 */
export async function startProviderAws(options: ProviderAwsOptions): Promise<ProviderAwsPeer> {
  // Built first and on its own: one Go build at a time (the cluster may build kube-apiserver).
  const build = await ensureProviderAws();
  await assertPortFree(PROVIDER_AWS_METRICS_PORT, "provider-aws's metrics server (controller-runtime's default address)");
  const ports = await distinctFreePorts(3);
  const cluster = await startKubeCluster({
    dir: join(options.dir, 'kube'),
    name: 'provider-aws',
    apiserverPort: ports[0]!,
    etcdClientPort: ports[1]!,
    etcdPeerPort: ports[2]!,
    detached: false,
  });
  const { kubeconfigPath } = cluster;
  const accessKeyId = options.accessKeyId ?? PROVIDER_AWS_ACCESS_KEY_ID;
  const logFile = join(options.dir, 'logs', 'provider-aws.log');
  let provider: ManagedProcess | undefined;
  const stop = async () => {
    await provider?.stop();
    await cluster.stop();
  };
  try {
    await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', build.crdDir]);
    await kubectl(kubeconfigPath, ['wait', '--for=condition=Established', '--timeout=120s', '-f', build.crdDir]);
    await applyProviderConfig(kubeconfigPath, options.ec2Endpoint, accessKeyId);

    // It serves no webhook in v0.58.0, but Crossplane always hands a provider a serving
    // certificate: the cluster's own apiserver certificate (CN/SANs for localhost) will do.
    const tlsDir = join(options.dir, 'tls');
    await writeServingCertDir(join(options.dir, 'kube', 'pki'), tlsDir);

    const pidFile = join(options.dir, 'run', 'provider-aws.pid');
    provider = await startProcess({
      name: 'provider-aws',
      command: build.binary,
      args: [`--poll=${options.pollInterval ?? '10s'}`, '--no-leader-election'],
      env: { ...providerEnvironment(), KUBECONFIG: kubeconfigPath, TLS_SERVER_CERTS_DIR: tlsDir },
      logFile,
      pidFile,
      detached: false,
    });
    await waitUntilReady({
      name: 'provider-aws',
      probe: await readinessProbe(kubeconfigPath),
      logFile,
      pidFile,
      timeoutMs: 180_000,
    });
    await kubectl(kubeconfigPath, ['delete', PROBED_KINDS.join(','), '-l', READINESS_LABEL, '--wait=true', '--timeout=60s']);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kubeconfigPath, ec2Endpoint: options.ec2Endpoint, accessKeyId, logFile, process: provider, stop };
}

async function applyProviderConfig(kubeconfigPath: string, ec2Endpoint: string, accessKeyId: string): Promise<void> {
  const credentials = ['[default]', `aws_access_key_id = ${accessKeyId}`, 'aws_secret_access_key = testing', ''].join('\n');
  const manifests = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: CREDENTIALS_SECRET.namespace } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: CREDENTIALS_SECRET.namespace, name: CREDENTIALS_SECRET.name },
      type: 'Opaque',
      stringData: { [CREDENTIALS_SECRET.key]: credentials },
    },
    {
      apiVersion: 'aws.crossplane.io/v1beta1',
      kind: 'ProviderConfig',
      metadata: { name: 'default' },
      spec: {
        credentials: { source: 'Secret', secretRef: { ...CREDENTIALS_SECRET } },
        endpoint: { hostnameImmutable: true, url: { type: 'Static', static: ec2Endpoint } },
      },
    },
  ];
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], manifests.map((manifest) => stringify(manifest)).join('---\n'));
}

const PROBED_KINDS = [
  'vpcs.ec2.aws.crossplane.io',
  'subnets.ec2.aws.crossplane.io',
  'internetgateways.ec2.aws.crossplane.io',
  'routetables.ec2.aws.crossplane.io',
];

/**
 * Ready when the ProviderConfig controller has claimed `default` (its in-use finalizer) and
 * the controllers of the four kinds the benchmark uses have each reconciled a paused canary
 * (Synced=False, reason ReconcilePaused): that needs no ProviderConfig and makes no EC2 call.
 */
async function readinessProbe(kubeconfigPath: string): Promise<() => Promise<boolean>> {
  const spec = (forProvider: Record<string, unknown>) => ({ forProvider: { region: 'us-east-1', ...forProvider } });
  const canary = (kind: string, forProvider: Record<string, unknown>) => ({
    apiVersion: 'ec2.aws.crossplane.io/v1beta1',
    kind,
    metadata: {
      name: 'chronoplane-readiness-probe',
      labels: { [READINESS_LABEL]: 'true' },
      annotations: { 'crossplane.io/paused': 'true' },
    },
    spec: spec(forProvider),
  });
  const canaries = [
    canary('VPC', { cidrBlock: '10.255.0.0/16' }),
    canary('Subnet', { cidrBlock: '10.255.0.0/24' }),
    canary('InternetGateway', {}),
    canary('RouteTable', { associations: [] }),
  ];
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: canaries }));
  return async () => {
    const { stdout: finalizers } = await kubectl(kubeconfigPath, [
      'get',
      'providerconfigs.aws.crossplane.io',
      'default',
      '-o',
      'jsonpath={.metadata.finalizers}',
    ]);
    if (!finalizers.includes('in-use.crossplane.io')) return false;
    const { stdout } = await kubectl(kubeconfigPath, ['get', PROBED_KINDS.join(','), '-l', READINESS_LABEL, '-o', 'json']);
    const items = (JSON.parse(stdout) as { items: { status?: { conditions?: { type: string; reason?: string }[] } }[] }).items;
    return (
      items.length === canaries.length &&
      items.every((item) => item.status?.conditions?.some((c) => c.type === 'Synced' && c.reason === 'ReconcilePaused'))
    );
  };
}
