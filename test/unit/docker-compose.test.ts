// docker-compose.yml cannot run here (no Docker engine), but `docker compose config`
// needs none: it parses, validates and normalises the file exactly as `up` would.
// These checks are what a user of the file relies on.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { credentialsFromIni } from '#providers/aws/credentials';
import { ensureDockerCompose } from '#stack/install-compose';
import { repoRoot } from '#stack/paths';
import { SEARCH_ATTRIBUTE_NAMES } from '#contract/search-attributes';
import { dynamicConfigFlags } from '#stack/temporal-dynamic-config';

const run = promisify(execFile);

interface Port {
  target: number;
  published?: string;
}
interface Service {
  command?: string[] | null;
  entrypoint?: string[] | null;
  environment?: Record<string, string | null>;
  ports?: Port[];
  volumes?: { type: string; source?: string; target: string; read_only?: boolean }[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
  build?: { context: string; dockerfile: string };
}
interface ComposeConfig {
  services: Record<string, Service>;
}

let dockerEnv: NodeJS.ProcessEnv;
let config: ComposeConfig;

function compose(args: string[]) {
  return run('docker', ['compose', '-f', join(repoRoot, 'docker-compose.yml'), ...args], { cwd: repoRoot, env: dockerEnv });
}

function service(name: string): Service {
  const found = config.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

beforeAll(async () => {
  // The first run builds the compose plugin from source (minutes); later runs reuse it.
  const { dockerConfigDir } = await ensureDockerCompose();
  dockerEnv = { ...process.env, DOCKER_CONFIG: dockerConfigDir };
  const { stdout } = await compose(['config', '--format', 'json']);
  config = JSON.parse(stdout) as ComposeConfig;
}, 15 * 60_000);

describe('docker-compose.yml', () => {
  it('is valid (`docker compose config --quiet` exits 0)', async () => {
    const { stdout, stderr } = await compose(['config', '--quiet']);
    expect(stdout).toBe('');
    // compose warns on stderr about things it still accepts (unset variables, obsolete keys).
    expect(stderr).toBe('');
  });

  it('has the six services', () => {
    expect(Object.keys(config.services).sort()).toEqual(['k3s', 'moto', 'setup', 'temporal', 'watcher', 'worker']);
  });

  it.each(['worker', 'watcher'])('%s is built from the repo and reaches Temporal and the cluster', (name) => {
    const svc = service(name);
    expect(svc.build?.context).toBe(repoRoot);
    expect(svc.command).toEqual(['node', '--import', 'tsx', `${name}/main.ts`]);
    const env = svc.environment ?? {};
    expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(env.TEMPORAL_NAMESPACE).toBe('default');
    expect(env.CHRONOPLANE_TASK_QUEUE).toBe('chronoplane');
    // The kubeconfig must be on a volume the service mounts.
    const kubeconfig = env.KUBECONFIG ?? '';
    expect(kubeconfig).not.toBe('');
    const mount = (svc.volumes ?? []).find((volume) => kubeconfig.startsWith(`${volume.target}/`));
    expect(mount?.source).toBe('kubeconfig');
    expect(svc.depends_on?.setup?.condition).toBe('service_completed_successfully');
    expect(svc.depends_on?.temporal?.condition).toBe('service_healthy');
  });

  it('temporal publishes 7233 and 8233 and registers the search attributes', () => {
    const temporal = service('temporal');
    const published = (temporal.ports ?? []).map((port) => `${port.published}:${port.target}`);
    expect(published).toEqual(expect.arrayContaining(['7233:7233', '8233:8233']));
    const command = temporal.command ?? [];
    expect(command.slice(0, 2)).toEqual(['server', 'start-dev']);
    expect(command[command.indexOf('--ip') + 1]).toBe('0.0.0.0');
    const registered = command.flatMap((arg, i) => (command[i - 1] === '--search-attribute' ? [arg] : []));
    expect(registered.sort()).toEqual(SEARCH_ATTRIBUTE_NAMES.map((name) => `${name}=Keyword`).sort());
    expect(temporal.healthcheck?.test).toBeDefined();
  });

  it('temporal runs with the dynamic config the native stack gives it', () => {
    const command = service('temporal').command ?? [];
    const values = command.flatMap((arg, i) => (command[i - 1] === '--dynamic-config-value' ? ['--dynamic-config-value', arg] : []));
    expect(values).toEqual(dynamicConfigFlags());
  });

  it('setup applies deploy/crds and points the default ClusterProviderConfig at the moto service', async () => {
    const setup = service('setup');
    const deployMount = (setup.volumes ?? []).find((volume) => volume.target === '/deploy');
    expect(deployMount?.source).toBe(join(repoRoot, 'deploy'));
    expect(deployMount?.read_only).toBe(true);
    expect(setup.depends_on?.k3s?.condition).toBe('service_healthy');
    expect(setup.entrypoint).toEqual(['/bin/sh', '-ec']);
    const script = (setup.command ?? []).join('\n');
    // The shell must at least be able to parse it.
    await run('sh', ['-n', '-c', script]);
    expect(script).toMatch(/^kubectl apply\b.* -f \/deploy\/crds\/$/m);

    // The manifests the script pipes to `kubectl apply -f -`.
    const heredoc = /<<'EOF'\n([\s\S]*?)\nEOF$/m.exec(script)?.[1];
    expect(heredoc).toBeDefined();
    const objects = parseAllDocuments(heredoc ?? '').map((document) => document.toJS() as Record<string, any>);
    const providerConfig = objects.find((object) => object.kind === 'ClusterProviderConfig');
    expect(providerConfig).toMatchObject({
      apiVersion: 'aws.chronoplane.io/v1alpha1',
      metadata: { name: 'default' },
      spec: {
        credentials: { source: 'Secret', secretRef: { namespace: 'chronoplane-system', name: 'aws-credentials', key: 'credentials' } },
        endpoint: { url: 'http://moto:5000' },
      },
    });
    const secret = objects.find((object) => object.kind === 'Secret');
    expect(secret?.metadata).toEqual({ namespace: 'chronoplane-system', name: 'aws-credentials' });
    expect(credentialsFromIni(secret?.stringData?.credentials ?? '', 'default').accessKeyId).toBeTruthy();

    // moto listens on 5000 inside the network, whatever the host port is.
    expect((service('moto').ports ?? []).map((port) => port.target)).toContain(5000);
  });
});
