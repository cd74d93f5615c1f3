// The certificates a local Kubernetes control plane needs, made with the openssl
// CLI: one CA that signs the apiserver's serving cert and the client certs, plus
// the RSA keypair that signs and verifies service-account tokens. Existing files
// are reused, so restarting a cluster keeps its kubeconfig valid.
import { randomBytes } from 'node:crypto';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from './run-command';

export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  apiserverCert: string;
  apiserverKey: string;
  /** CN=chronoplane-admin, O=system:masters: full access, for people and tests. */
  adminCert: string;
  adminKey: string;
  /** CN=system:kube-controller-manager: the identity RBAC's bootstrap roles expect. */
  controllerManagerCert: string;
  controllerManagerKey: string;
  serviceAccountKey: string;
  serviceAccountPublicKey: string;
}

const VALID_DAYS = '3650';

/** Names the apiserver answers to: what clients dial, and in-cluster service names. */
const APISERVER_SANS = [
  'IP:127.0.0.1',
  'DNS:localhost',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
  // The first address of --service-cluster-ip-range: the `kubernetes` Service.
  'IP:10.0.0.1',
];

export function pkiPaths(dir: string): Pki {
  const file = (name: string) => join(dir, name);
  return {
    dir,
    caCert: file('ca.crt'),
    caKey: file('ca.key'),
    apiserverCert: file('apiserver.crt'),
    apiserverKey: file('apiserver.key'),
    adminCert: file('admin.crt'),
    adminKey: file('admin.key'),
    controllerManagerCert: file('controller-manager.crt'),
    controllerManagerKey: file('controller-manager.key'),
    serviceAccountKey: file('service-account.key'),
    serviceAccountPublicKey: file('service-account.pub'),
  };
}

export async function ensurePki(dir: string): Promise<Pki> {
  const pki = pkiPaths(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });

  if (!(await pathExists(pki.caCert)) || !(await pathExists(pki.caKey))) {
    // Certificates signed by a previous CA would no longer verify: start over.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await createCa(pki, '/CN=chronoplane-ca');
  }
  await ensureLeaf(pki, pki.apiserverCert, pki.apiserverKey, {
    subject: '/CN=kube-apiserver',
    extensions: [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      `subjectAltName=${APISERVER_SANS.join(',')}`,
    ],
  });
  await ensureLeaf(pki, pki.adminCert, pki.adminKey, clientCert('/O=system:masters/CN=chronoplane-admin'));
  await ensureLeaf(pki, pki.controllerManagerCert, pki.controllerManagerKey, clientCert('/CN=system:kube-controller-manager'));
  if (!(await pathExists(pki.serviceAccountKey)) || !(await pathExists(pki.serviceAccountPublicKey))) {
    await runCommand('openssl', ['genrsa', '-out', pki.serviceAccountKey, '2048']);
    await runCommand('openssl', ['rsa', '-in', pki.serviceAccountKey, '-pubout', '-out', pki.serviceAccountPublicKey]);
  }
  return pki;
}

/** What a leaf certificate says: its subject, and its X.509 v3 extensions as openssl writes them. */
export interface LeafProfile {
  subject: string;
  extensions: string[];
}

/** A CA's certificate and key files. */
interface CertificateAuthority {
  caCert: string;
  caKey: string;
}

function clientCert(subject: string): LeafProfile {
  return {
    subject,
    extensions: ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=clientAuth'],
  };
}

/** A self-signed CA, good for ten years; `subject` as openssl takes it (`/CN=…`). */
export async function createCa(ca: CertificateAuthority, subject: string): Promise<void> {
  await runCommand('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', ca.caKey, '-out', ca.caCert, '-days', VALID_DAYS],
    ...['-subj', subject, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  ]);
}

/** A certificate and key signed by `ca`, unless both files exist already. */
export async function ensureLeaf(ca: CertificateAuthority, cert: string, key: string, profile: LeafProfile): Promise<void> {
  if ((await pathExists(cert)) && (await pathExists(key))) return;
  const csr = `${cert}.csr`;
  const extensionsFile = `${cert}.ext`;
  await runCommand('openssl', ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', profile.subject]);
  await writeFile(extensionsFile, profile.extensions.join('\n') + '\n');
  await runCommand('openssl', [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.caCert,
    '-CAkey',
    ca.caKey,
    // A random serial, so no serial file has to be kept next to the CA.
    '-set_serial',
    `0x${randomBytes(16).toString('hex')}`,
    '-days',
    VALID_DAYS,
    '-extfile',
    extensionsFile,
    '-out',
    cert,
  ]);
  await rm(csr, { force: true });
  await rm(extensionsFile, { force: true });
}

/** Whether a file or directory is there. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
