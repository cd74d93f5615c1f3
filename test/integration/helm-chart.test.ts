// The Helm chart as helm and the API server judge it: `helm lint` (also --strict), `helm template`
// with the default values and with every option on, and each rendered set applied to the test
// stack's kube-apiserver as a server-side dry run, so that every object is validated by the same
// code that would store it. helm is built from its Go module (stack/helm.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { ensureHelm } from '#stack/helm';
import { CommandFailedError, runCommand } from '#stack/run-command';
import { runKubectl } from './kubectl';

const chart = join(import.meta.dirname, '..', '..', 'deploy', 'helm', 'chronoplane');
const PROMETHEUS_OPERATOR_VERSION = 'v0.85.0';

/** Every option on: TLS with a client certificate and CA, an API key, the codec server, the ServiceMonitor, the PDB, the dashboard, an existing payload Secret. */
const everyOptionOn = {
  replicas: 3,
  image: { repository: 'registry.example.com/chronoplane', tag: 'v9.9.9', pullPolicy: 'Always', pullSecrets: ['registry-login'] },
  temporal: {
    address: 'prod.a1b2c.tmprl.cloud:7233',
    namespace: 'prod.a1b2c',
    taskQueue: 'chronoplane-prod',
    tls: {
      enabled: true,
      serverName: 'prod.a1b2c.tmprl.cloud',
      clientCertSecret: { name: 'temporal-client-tls', certKey: 'tls.crt', keyKey: 'tls.key' },
      caSecret: { name: 'temporal-ca', key: 'ca.crt' },
    },
    apiKey: { existingSecret: 'temporal-api-key', key: 'api-key' },
  },
  payloadKey: { existingSecret: 'chronoplane-payload-keys', key: 'keys' },
  codecServer: {
    enabled: true,
    replicas: 2,
    allowedOrigins: ['https://cloud.temporal.io'],
    tokenSecret: { name: 'codec-token', key: 'token' },
  },
  watchNamespace: 'team-a',
  poll: { steadySeconds: 600, pendingSeconds: 15, safetyNetSeconds: 3600 },
  logLevel: 'debug',
  worker: { maxCachedWorkflows: 1000, maxConcurrentWorkflowTasks: 80 },
  metrics: { serviceMonitor: { enabled: true, interval: '15s', labels: { release: 'kube-prometheus-stack' } } },
  dashboard: { enabled: true, labels: { team: 'platform' } },
  podDisruptionBudget: { enabled: true, maxUnavailable: 1 },
  serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/chronoplane' } },
  rbac: { extraRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'patch'] }] },
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'control-plane', effect: 'NoSchedule' }],
  affinity: {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 100,
          podAffinityTerm: {
            topologyKey: 'kubernetes.io/hostname',
            labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'chronoplane' } },
          },
        },
      ],
    },
  },
};

interface Rendered {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
}

let helm: string;
let work: string;
const namespace = `it-helm-${randomBytes(3).toString('hex')}`;

async function runHelm(args: string[]): Promise<string> {
  return (await runCommand(helm, args)).stdout;
}

async function template(valuesFile?: string, extra: string[] = []): Promise<string> {
  return runHelm(['template', 'chronoplane', chart, '--namespace', namespace, ...(valuesFile ? ['--values', valuesFile] : []), ...extra]);
}

function objectsOf(manifest: string): Rendered[] {
  return parseAllDocuments(manifest)
    .map((doc) => doc.toJS() as Rendered | null)
    .filter((o): o is Rendered => o !== null);
}

const find = (objects: Rendered[], kind: string, name?: string) =>
  objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

/** Applies `manifest` as a server-side dry run; returns what kubectl reports per object. */
async function dryRunApply(manifest: string): Promise<string[]> {
  const out = await runKubectl(['apply', '--dry-run=server', '-f', '-'], manifest);
  return out.split('\n').filter((line) => line.trim() !== '');
}

function envOf(deployment: Rendered): Map<string, { value?: string; valueFrom?: any }> {
  return new Map(deployment.spec.template.spec.containers[0].env.map((e: any) => [e.name, e]));
}

beforeAll(async () => {
  helm = await ensureHelm();
  work = await mkdtemp(join(tmpdir(), 'chronoplane-helm-'));
  await writeFile(join(work, 'every-option.yaml'), stringify(everyOptionOn));
  await runKubectl(['create', 'namespace', namespace]);
  // The ServiceMonitor's CRD, as prometheus-operator ships it: the API server can then judge ours.
  const download = JSON.parse(
    (
      await runCommand('go', [
        'mod',
        'download',
        '-json',
        `github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION}`,
      ])
    ).stdout,
  ) as { Dir: string };
  const crd = await readFile(
    join(download.Dir, 'example', 'prometheus-operator-crd', 'monitoring.coreos.com_servicemonitors.yaml'),
    'utf8',
  );
  await runKubectl(['apply', '--server-side', '-f', '-'], crd);
  await runKubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/servicemonitors.monitoring.coreos.com']);
});

afterAll(async () => {
  await runKubectl(['delete', 'namespace', namespace, '--wait=false', '--ignore-not-found']).catch(() => undefined);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the Helm chart', () => {
  it('passes helm lint, also --strict, with the default values and with every option on', async () => {
    for (const args of [[], ['--strict']]) {
      await runHelm(['lint', chart, ...args]);
      await runHelm(['lint', chart, ...args, '--values', join(work, 'every-option.yaml')]);
    }
  });

  it('renders the default install, and the API server accepts every object', async () => {
    const manifest = await template(undefined, ['--include-crds']);
    const objects = objectsOf(manifest);
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of [
      'CustomResourceDefinition',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'Deployment',
      'Service',
      'PodDisruptionBudget',
      'Secret',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    // Off by default: they need things the cluster may not have.
    expect(kinds).not.toContain('ServiceMonitor');
    expect(find(objects, 'ConfigMap')).toEqual([]);

    const reported = await dryRunApply(manifest);
    expect(reported.length).toBe(objects.length);
    for (const line of reported) expect(line).toMatch(/\(server dry run\)$/);

    const [worker] = find(objects, 'Deployment');
    expect(worker!.spec.replicas).toBe(2);
    const env = envOf(worker!);
    expect(env.get('CHRONOPLANE_EMBEDDED_WATCHER')?.value).toBe('true');
    expect(env.get('CHRONOPLANE_LEADER_ELECTION')?.value).toBe('true');
    expect(env.get('CHRONOPLANE_LEADER_ELECTION_NAMESPACE')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
    expect(env.get('CHRONOPLANE_LEADER_ELECTION_IDENTITY')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    expect(env.get('CHRONOPLANE_METRICS_BIND_ADDRESS')?.value).toBe('0.0.0.0');
    expect(env.has('TEMPORAL_TLS')).toBe(false);
    expect(env.has('CHRONOPLANE_WATCH_NAMESPACE')).toBe(false);
    expect(env.has('CHRONOPLANE_POLL_STEADY_SECONDS')).toBe(false);

    // The chart made the payload key, to be kept when the release goes.
    const [payloadSecret] = find(objects, 'Secret');
    expect(payloadSecret!.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const keys = Buffer.from(payloadSecret!.data.keys, 'base64').toString('utf8');
    expect(Buffer.from(keys, 'base64')).toHaveLength(32);
    expect(env.get('CHRONOPLANE_PAYLOAD_KEY_FILE')?.value).toBe('/etc/chronoplane/payload-key/keys');
  });

  it('renders every option, and the API server accepts every object', async () => {
    const manifest = await template(join(work, 'every-option.yaml'));
    const objects = objectsOf(manifest);
    const reported = await dryRunApply(manifest);
    expect(reported.length).toBe(objects.length);
    for (const line of reported) expect(line).toMatch(/\(server dry run\)$/);

    expect(find(objects, 'ServiceMonitor')).toHaveLength(1);
    expect(find(objects, 'PodDisruptionBudget')[0]!.spec).toMatchObject({ maxUnavailable: 1 });
    const [dashboard] = find(objects, 'ConfigMap');
    expect(dashboard!.metadata.labels?.grafana_dashboard).toBe('1');
    expect(JSON.parse(dashboard!.data['chronoplane.json']).uid).toBe('chronoplane');
    // An existing payload Secret: the chart makes none.
    expect(find(objects, 'Secret')).toEqual([]);

    const [worker, codec] = ['chronoplane', 'chronoplane-codec-server'].map((name) => find(objects, 'Deployment', name)[0]!);
    const env = envOf(worker!);
    expect(Object.fromEntries([...env].filter(([, e]) => e.value !== undefined).map(([name, e]) => [name, e.value]))).toMatchObject({
      TEMPORAL_ADDRESS: 'prod.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'prod.a1b2c',
      CHRONOPLANE_TASK_QUEUE: 'chronoplane-prod',
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_SERVER_NAME: 'prod.a1b2c.tmprl.cloud',
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/etc/chronoplane/temporal-tls/client/tls.crt',
      TEMPORAL_TLS_CLIENT_KEY_PATH: '/etc/chronoplane/temporal-tls/client/tls.key',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/etc/chronoplane/temporal-tls/ca/ca.crt',
      CHRONOPLANE_WATCH_NAMESPACE: 'team-a',
      CHRONOPLANE_POLL_STEADY_SECONDS: '600',
      CHRONOPLANE_POLL_PENDING_SECONDS: '15',
      CHRONOPLANE_POLL_SAFETY_NET_SECONDS: '3600',
      CHRONOPLANE_MAX_CACHED_WORKFLOWS: '1000',
      CHRONOPLANE_MAX_CONCURRENT_WORKFLOW_TASKS: '80',
      LOG_LEVEL: 'debug',
    });
    // Secrets reach the pods by reference, never as values in the manifest.
    expect(env.get('TEMPORAL_API_KEY')?.valueFrom).toEqual({ secretKeyRef: { name: 'temporal-api-key', key: 'api-key' } });
    const codecEnv = envOf(codec!);
    expect(codecEnv.get('CHRONOPLANE_CODEC_TOKEN')?.valueFrom).toEqual({ secretKeyRef: { name: 'codec-token', key: 'token' } });
    expect(codecEnv.get('CHRONOPLANE_CODEC_ALLOWED_ORIGINS')?.value).toBe('https://cloud.temporal.io');
    for (const deployment of [worker!, codec!]) {
      const volumes = deployment.spec.template.spec.volumes as { name: string; secret?: { secretName: string } }[];
      expect(volumes.find((v) => v.name === 'payload-key')?.secret?.secretName).toBe('chronoplane-payload-keys');
    }
  });

  it("gives the ClusterRole no wildcard, and the Lease to a Role of the release's namespace", async () => {
    for (const valuesFile of [undefined, join(work, 'every-option.yaml')]) {
      const objects = objectsOf(await template(valuesFile));
      const [clusterRole] = find(objects, 'ClusterRole');
      expect(clusterRole!.rules.length).toBeGreaterThan(0);
      for (const rule of clusterRole!.rules) {
        for (const value of [...rule.apiGroups, ...rule.resources, ...rule.verbs, ...(rule.resourceNames ?? [])]) {
          expect(value, JSON.stringify(rule)).not.toContain('*');
        }
        expect(rule.resources, JSON.stringify(rule)).not.toContain('leases');
      }
      const [role] = find(objects, 'Role');
      expect(role!.metadata.namespace).toBe(namespace);
      expect(role!.rules).toEqual([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'watch', 'create', 'update'] },
      ]);
    }
  });

  it('refuses a value of the wrong type, naming it', async () => {
    const refused = await template(undefined, ['--set', 'replicas=two']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CommandFailedError);
    expect((refused as CommandFailedError).output).toMatch(/replicas/);
    expect((refused as CommandFailedError).output).toMatch(/schema/i);
  });

  it('refuses several pods without leader election: each would signal every event', async () => {
    const refused = await template(undefined, ['--set', 'leaderElection.enabled=false']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as CommandFailedError).output).toMatch(/leaderElection.enabled=false needs replicas: 1/);
    const single = objectsOf(await template(undefined, ['--set', 'leaderElection.enabled=false', '--set', 'replicas=1']));
    expect(find(single, 'Role')).toEqual([]);
    expect(envOf(find(single, 'Deployment')[0]!).get('CHRONOPLANE_LEADER_ELECTION')?.value).toBe('false');
  });

  it('refuses a cluster older than Kubernetes 1.30, whose API server has no ValidatingAdmissionPolicy v1', async () => {
    const refused = await template(undefined, ['--kube-version', '1.29.9']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as CommandFailedError).output).toMatch(/kubeVersion: >=1\.30\.0-0 .*Kubernetes v1\.29\.9/);
  });

  it('prints notes that say how to check the install', async () => {
    // The test stack installed the admission policies itself; an install would have to own them.
    // A release name of its own: another test file may have applied the default release's
    // cluster-scoped RBAC (least-privilege.test.ts), which an install would refuse to adopt.
    const out = await runHelm([
      'install',
      'chronoplane-notes',
      chart,
      '--namespace',
      namespace,
      '--dry-run=server',
      '--kubeconfig',
      inject('kubeconfigPath'),
      '--set',
      'admissionPolicies.enabled=false',
    ]);
    expect(out).toContain('NOTES:');
    const notes = out.slice(out.indexOf('NOTES:'));
    expect(notes).toContain(`kubectl -n ${namespace} rollout status deployment/chronoplane-notes`);
    expect(notes).toContain(`Secret ${namespace}/chronoplane-notes-payload-key`);
  });

  it('creates the payload key once and keeps it: a second render against the cluster reuses it', async () => {
    const pick = (manifest: string) => find(objectsOf(manifest), 'Secret')[0]!;
    const first = pick(await template(undefined, ['--show-only', 'templates/payload-key-secret.yaml']));
    await runKubectl(['apply', '-f', '-'], stringify(first));
    const again = pick(
      await template(undefined, [
        '--show-only',
        'templates/payload-key-secret.yaml',
        '--dry-run=server',
        '--kubeconfig',
        inject('kubeconfigPath'),
      ]),
    );
    expect(again.data.keys).toBe(first.data.keys);
  });
});
