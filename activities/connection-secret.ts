// Publishes a managed resource's connection details (an address, a private key) to the Secret
// its spec names in writeConnectionSecretToRef, the way crossplane-runtime's APISecretPublisher
// does: type connection.crossplane.io/v1alpha1, in the resource's namespace, controlled by the
// resource so that Kubernetes' garbage collector deletes it with the resource. One mechanism
// for every kind: a kind only returns connectionDetails from observe or create.
//
// This runs inside the activity that obtained the details, and the activity returns without
// them: values never reach the workflow, its history, status, events or logs. Keys are merged
// and never removed, as Crossplane's patching applicator does, so an observe that returns fewer
// keys than create did (a key pair's private key comes only from create) loses nothing.
import { createHmac, randomBytes } from 'node:crypto';
import type { V1OwnerReference, V1Secret } from '@kubernetes/client-node';
import type { ConnectionDetails } from '#core/external-client';
import { ClassifiedError } from '#core/errors';
import { apiVersionOf, type KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';

export const CONNECTION_SECRET_TYPE = 'connection.crossplane.io/v1alpha1';

/** The Secret reads and writes publishing needs (activities/kube.ts provides them). */
export interface SecretAccess {
  readSecret(namespace: string, name: string): Promise<V1Secret | undefined>;
  createSecret(namespace: string, secret: V1Secret): Promise<unknown>;
  replaceSecret(namespace: string, name: string, secret: V1Secret): Promise<unknown>;
}

type SecretPlan = { action: 'create' | 'update'; secret: V1Secret } | { action: 'unchanged' } | { action: 'refuse'; reason: string };

/** The reference that makes the resource the Secret's controller, and its garbage collector. */
function controllerReferenceTo(mr: ManagedResource, api: KindApi): V1OwnerReference {
  return {
    apiVersion: apiVersionOf(api),
    kind: api.kind,
    name: mr.metadata.name,
    uid: mr.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Why `existing` is not ours to write, or undefined when it is: we write only a Secret that
 * this very resource controls. A Secret someone made by hand, or another resource's (or a
 * deleted predecessor's, until the garbage collector removes it), is left alone.
 */
function notOurs(existing: V1Secret, mr: ManagedResource): string | undefined {
  const where = `Secret ${existing.metadata?.namespace ?? mr.metadata.namespace}/${existing.metadata?.name}`;
  const controller = existing.metadata?.ownerReferences?.find((ref) => ref.controller);
  if (controller?.uid === mr.metadata.uid && existing.type === CONNECTION_SECRET_TYPE) return undefined;
  const owner = controller
    ? `is controlled by ${controller.kind} ${controller.name} (uid ${controller.uid})`
    : 'was not created by Chronoplane';
  return `cannot publish connection details: ${where} ${owner}; delete it or name another Secret in spec.writeConnectionSecretToRef`;
}

/** What to do to make the Secret hold `details`, given what the API server has now. */
export function planConnectionSecret(
  mr: ManagedResource,
  api: KindApi,
  secretName: string,
  details: ConnectionDetails,
  existing: V1Secret | undefined,
): SecretPlan {
  const wanted = encode(details);
  if (!existing) {
    return {
      action: 'create',
      secret: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secretName, namespace: connectionSecretNamespace(mr), ownerReferences: [controllerReferenceTo(mr, api)] },
        type: CONNECTION_SECRET_TYPE,
        data: wanted,
      },
    };
  }
  const refusal = notOurs(existing, mr);
  if (refusal) return { action: 'refuse', reason: refusal };
  const data = existing.data ?? {};
  if (Object.entries(wanted).every(([key, value]) => data[key] === value)) return { action: 'unchanged' };
  // The read's resourceVersion stays in metadata: a concurrent edit makes the replace fail.
  return { action: 'update', secret: { ...existing, data: { ...data, ...wanted } } };
}

function encode(details: ConnectionDetails): Record<string, string> {
  return Object.fromEntries(Object.entries(details).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
}

interface Published {
  ownerUid: string;
  digest: string;
  checkedAt: number;
}

/**
 * Publishes connection details, remembering what it last wrote or found so that a settled
 * resource, which observes the same details every pass, neither writes nor even reads its
 * Secret each pass: only when the details change, or `recheckMs` after the last look (which
 * restores a Secret someone deleted or edited). The memory holds keyed digests, not values.
 */
/**
 * The resource's own namespace, always, for a namespaced resource: its schema has no namespace
 * field, and even one stored somehow never sends its Secret into another tenant's namespace. A
 * cluster-scoped resource (provider-kubernetes' legacy Object, which only cluster admins create)
 * names one in writeConnectionSecretToRef, as crossplane-runtime's SecretReference does.
 */
function connectionSecretNamespace(mr: ManagedResource): string {
  const namespace = mr.metadata.namespace || mr.spec.writeConnectionSecretToRef?.namespace;
  if (!namespace)
    throw new ClassifiedError('InvalidInput', 'spec.writeConnectionSecretToRef.namespace is required for a cluster-scoped resource');
  return namespace;
}

export class ConnectionPublisher {
  private readonly published = new Map<string, Published>();
  /** Per process: a digest in memory cannot be matched against guessed values elsewhere. */
  private readonly digestKey = randomBytes(32);

  constructor(
    private readonly secrets: SecretAccess,
    private readonly recheckMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws, before anything external is created, when the Secret exists and is not ours: the
   * details create returns (a private key) could otherwise be obtained and then not be kept.
   */
  async ensureWritable(mr: ManagedResource): Promise<void> {
    const name = mr.spec.writeConnectionSecretToRef?.name;
    if (!name) return;
    const existing = await this.secrets.readSecret(connectionSecretNamespace(mr), name);
    const refusal = existing && notOurs(existing, mr);
    if (refusal) throw new ClassifiedError('InvalidInput', refusal);
  }

  /**
   * Writes `details` to the resource's connection Secret if they differ from what it holds.
   * Returns a one-line account of the write (key names, never values), or undefined when it
   * wrote nothing. Details of a resource that names no Secret are dropped.
   */
  async publish(mr: ManagedResource, api: KindApi, details: ConnectionDetails | undefined): Promise<string | undefined> {
    const name = mr.spec.writeConnectionSecretToRef?.name;
    if (!name || !details || Object.keys(details).length === 0) return undefined;
    const namespace = connectionSecretNamespace(mr);
    const memoKey = `${namespace}/${name}`;
    const digest = this.digestOf(details);
    const last = this.published.get(memoKey);
    if (last && last.ownerUid === mr.metadata.uid && last.digest === digest && this.now() - last.checkedAt < this.recheckMs) {
      return undefined;
    }
    const plan = planConnectionSecret(mr, api, name, details, await this.secrets.readSecret(namespace, name));
    if (plan.action === 'refuse') {
      this.published.delete(memoKey);
      throw new ClassifiedError('InvalidInput', plan.reason);
    }
    if (plan.action === 'create') await this.secrets.createSecret(namespace, plan.secret);
    if (plan.action === 'update') await this.secrets.replaceSecret(namespace, name, plan.secret);
    this.published.set(memoKey, { ownerUid: mr.metadata.uid, digest, checkedAt: this.now() });
    if (plan.action === 'unchanged') return undefined;
    return `wrote ${Object.keys(details).sort().join(', ')} to connection Secret ${name}`;
  }

  private digestOf(details: ConnectionDetails): string {
    const entries = Object.entries(details).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHmac('sha256', this.digestKey).update(JSON.stringify(entries)).digest('hex');
  }
}
