// Writes a kubeconfig with the certificates embedded, so the file alone is enough
// to reach the cluster (it can be copied, or handed to a test, without the pki dir).
import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

interface KubeconfigInput {
  path: string;
  /** Names the cluster, user and context alike, e.g. "chronoplane". */
  name: string;
  server: string;
  caCertFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

export async function writeKubeconfig(input: KubeconfigInput): Promise<void> {
  const base64Of = async (file: string) => (await readFile(file)).toString('base64');
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: input.name, cluster: { server: input.server, 'certificate-authority-data': await base64Of(input.caCertFile) } }],
    users: [
      {
        name: input.name,
        user: {
          'client-certificate-data': await base64Of(input.clientCertFile),
          'client-key-data': await base64Of(input.clientKeyFile),
        },
      },
    ],
    contexts: [{ name: input.name, context: { cluster: input.name, user: input.name } }],
    'current-context': input.name,
  };
  await writeFile(input.path, stringify(kubeconfig), { mode: 0o600 });
}
