// What every Crossplane provider run as a benchmark peer needs, whichever provider it is: its
// CRDs copied without conversion webhooks, free ports for its own kube-apiserver, a check that
// the fixed ports controller-runtime hard-codes are free, a serving certificate where Crossplane
// would mount one, and an environment that cannot steer it at the wrong cluster.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { pkiPaths } from '#stack/pki';
import { freePort } from '#stack/ports';

/**
 * Copies the module's CRDs, dropping any spec.conversion: Crossplane's package manager would
 * point it at the provider's webhook, which nothing here runs.
 */
export async function copyCrds(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  for (const file of await yamlFiles(from)) {
    const documents = parseAllDocuments(await readFile(join(from, file), 'utf8'))
      .map((document) => document.toJS() as { spec?: { conversion?: unknown } } | null)
      .filter((crd) => crd !== null);
    for (const crd of documents) delete crd.spec?.conversion;
    await writeFile(join(to, file), documents.map((crd) => stringify(crd)).join('---\n'));
  }
}

/** The .yaml files directly in `dir`, sorted; none when it does not exist. */
export async function yamlFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((file) => file.endsWith('.yaml')).sort();
  } catch {
    return [];
  }
}

/** `count` free ports, never the same one twice (the OS may hand out a just-closed port again). */
export async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * Fails with a message naming `who` when something already listens on `port`. Providers built
 * on controller-runtime bind some ports (metrics :8080, webhooks :9443) with no flag to move
 * them; a clear error beats the provider dying with "address already in use" in its log.
 */
export async function assertPortFree(port: number, who: string): Promise<void> {
  await new Promise<void>((resolvePort, reject) => {
    const server = createServer();
    server.once('error', () =>
      reject(new Error(`${who} needs port ${port} (it has no flag to change it), but that port is taken: is another provider running?`)),
    );
    server.listen(port, () => server.close(() => resolvePort()));
  });
}

/**
 * Fills `tlsDir` as Crossplane's TLS_SERVER_CERTS_DIR mount would be: tls.crt, tls.key, ca.crt.
 * The peer's own cluster's apiserver certificate (CN/SANs for localhost) will do; nothing
 * outside the peer's own processes ever calls a webhook it serves.
 */
export async function writeServingCertDir(clusterPkiDir: string, tlsDir: string): Promise<void> {
  const pki = pkiPaths(clusterPkiDir);
  await mkdir(tlsDir, { recursive: true, mode: 0o700 });
  await copyFile(pki.apiserverCert, join(tlsDir, 'tls.crt'));
  await copyFile(pki.apiserverKey, join(tlsDir, 'tls.key'));
  await copyFile(pki.caCert, join(tlsDir, 'ca.crt'));
}

/**
 * This process's environment without what would steer a provider elsewhere: credentials, the
 * cluster, and the variables their flags read (kingpin's PROVIDER_* defaults, and the ones
 * named explicitly, such as ENABLE_WATCHES or WEBHOOK_TLS_CERT_DIR, which would win over ours).
 */
export function providerEnvironment(): NodeJS.ProcessEnv {
  const steering =
    /^(AWS_|PROVIDER_|ENABLE_|KUBECONFIG$|LEADER_ELECTION$|POD_NAMESPACE$|WEBHOOK_TLS_CERT_DIR$|TLS_SERVER_CERTS_DIR$|SANITIZE_SECRETS$|HEALTH_PROBE_BIND_ADDRESS$|CHANGELOGS_SOCKET_PATH$)/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !steering.test(name)));
}
