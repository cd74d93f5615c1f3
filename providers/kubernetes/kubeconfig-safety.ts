// A kubeconfig read from a Secret is the Secret's writer's words, and a tenant can write a
// Secret in its own namespace. @kubernetes/client-node acts on what a kubeconfig says: it runs
// an `exec` plugin's command, calls an `auth-provider`, and reads `client-certificate`,
// `client-key`, `certificate-authority` and `tokenFile` from the worker's own disk. Any of those
// would let a namespace's admin run a command in the worker or borrow its files (its service
// account token, an admin certificate). So a kubeconfig from a Secret may only carry its
// credentials inline; the check runs before the library sees the text.
import { parse } from 'yaml';
import { ClassifiedError } from '#core/errors';

/** Fields that make the client run something or read a file of the worker's, with where they sit. */
const REFUSED_USER_FIELDS = ['exec', 'auth-provider', 'client-certificate', 'client-key', 'tokenFile', 'token-file'] as const;
const REFUSED_CLUSTER_FIELDS = ['certificate-authority'] as const;

interface NamedEntry {
  name?: unknown;
  user?: Record<string, unknown>;
  cluster?: Record<string, unknown>;
}

/**
 * The first field of `text` that Chronoplane refuses, as `users[alice].exec`, or undefined when
 * the kubeconfig carries only inline credentials (`*-data`, `token`, `username`/`password`).
 * Text that is not YAML is left to the caller's parser, which reports it.
 */
export function refusedKubeconfigField(text: string): string | undefined {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object') return undefined;
  const { users, clusters } = doc as { users?: unknown; clusters?: unknown };
  for (const entry of entries(users)) {
    for (const field of REFUSED_USER_FIELDS) if (hasField(entry.user, field)) return `users[${String(entry.name)}].${field}`;
  }
  for (const entry of entries(clusters)) {
    for (const field of REFUSED_CLUSTER_FIELDS) if (hasField(entry.cluster, field)) return `clusters[${String(entry.name)}].${field}`;
  }
  return undefined;
}

/** Throws InvalidInput naming the refused field (never its value) and where the kubeconfig came from. */
export function assertKubeconfigIsInline(text: string, where: string): void {
  const field = refusedKubeconfigField(text);
  if (field === undefined) return;
  throw new ClassifiedError(
    'InvalidInput',
    `the kubeconfig in ${where} uses ${field}: Chronoplane accepts only inline credentials in a kubeconfig from a Secret ` +
      '(certificate-authority-data, client-certificate-data, client-key-data, token, username and password), ' +
      'never a command to run or a file of the worker\u2019s to read',
  );
}

function entries(list: unknown): NamedEntry[] {
  return Array.isArray(list) ? list.filter((e): e is NamedEntry => typeof e === 'object' && e !== null) : [];
}

function hasField(section: Record<string, unknown> | undefined, field: string): boolean {
  return !!section && typeof section === 'object' && section[field] !== undefined && section[field] !== null && section[field] !== '';
}
