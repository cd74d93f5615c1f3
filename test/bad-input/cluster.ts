// What the corpus runner needs of the API server, each in as few kubectl calls as a batch
// allows: which resources the manifests' kinds are (discovery), applying and deleting many
// manifests at once, and listing every object of interest in one call per poll.
import { KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import { PlainObjectApi } from '#runtime/plain-object-api';
import { runKubectl } from '../integration/kubectl';
import type { Manifest } from './case';

/** One served resource, as the API server's discovery describes it. */
export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
}

/** An object, by what identifies it whatever version serves it. Namespace '' when cluster-scoped. */
export interface ObjectId {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

export const keyOf = (id: ObjectId): string => `${id.group}/${id.kind}/${id.namespace}/${id.name}`;
export const describeId = (id: ObjectId): string => `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
export const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

/** A stored object, as far as the runner reads it. */
export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    generation?: number;
    deletionTimestamp?: string;
    finalizers?: string[];
  };
  status?: { conditions?: StoredCondition[] };
}

export interface StoredCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

const idOfStored = (object: StoredObject): ObjectId => ({
  group: groupOf(object.apiVersion),
  kind: object.kind,
  namespace: object.metadata.namespace ?? '',
  name: object.metadata.name,
});

/** The kinds the corpus uses, read once from the API server's discovery documents. */
export class Discovery {
  private constructor(private readonly resources: ApiResource[]) {}

  /** Discovery for every apiVersion given; one the server does not serve has no resources (a case may misspell it). */
  static async load(apiVersions: Iterable<string>): Promise<Discovery> {
    const lists = await Promise.all(
      [...new Set(apiVersions)].map(async (apiVersion) => {
        const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
        try {
          return parseResourceList(apiVersion, JSON.parse(await runKubectl(['get', '--raw', path])));
        } catch (error) {
          if (/NotFound|not found/i.test(String(error))) return [];
          throw error;
        }
      }),
    );
    return new Discovery(lists.flat());
  }

  /** The resource of a manifest's apiVersion and kind; undefined when the server does not serve it. */
  resourceOf(manifest: Pick<Manifest, 'apiVersion' | 'kind'>): ApiResource | undefined {
    const group = groupOf(manifest.apiVersion);
    return this.resources.find((r) => r.group === group && r.kind === manifest.kind);
  }

  /** The resource of an object's group and kind, served in whatever version. */
  resourceOfId(id: Pick<ObjectId, 'group' | 'kind'>): ApiResource | undefined {
    return this.resources.find((r) => r.group === id.group && r.kind === id.kind);
  }

  /**
   * Whether `name` is how kubectl could name this resource: its kind, plural, singular or a
   * short name, alone or followed by its group (`vpc`, `vpcs.ec2.aws.chronoplane.io`).
   */
  static names(resource: ApiResource, name: string): boolean {
    const wanted = name.toLowerCase();
    const bare = [resource.kind.toLowerCase(), resource.plural, resource.singular, ...resource.shortNames];
    return bare.some((n) => n === wanted || (resource.group !== '' && `${n}.${resource.group}` === wanted));
  }

  /** How kubectl names the resource unambiguously: `vpcs.ec2.aws.chronoplane.io`, or `secrets` for the core group. */
  static qualified(resource: ApiResource): string {
    return resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
  }
}

function parseResourceList(apiVersion: string, list: { resources?: RawResource[] }): ApiResource[] {
  const group = groupOf(apiVersion);
  const version = apiVersion.includes('/') ? apiVersion.split('/')[1]! : apiVersion;
  return (list.resources ?? [])
    .filter((r) => !r.name.includes('/')) // subresources: status, scale …
    .map((r) => ({
      group,
      version,
      kind: r.kind,
      plural: r.name,
      singular: r.singularName || r.kind.toLowerCase(),
      shortNames: r.shortNames ?? [],
      namespaced: r.namespaced,
    }));
}

interface RawResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  shortNames?: string[];
}

/**
 * The manifests as a stream of JSON documents, the way `kubectl apply -f dir/` reads a
 * directory: in order, each on its own. Not a List: kubectl cannot ask the server to validate a
 * List's fields (it is no server resource), so it validates a List's items itself, with other
 * words than the API server a user's files meet.
 */
const asStream = (manifests: readonly Manifest[]) => manifests.map((m) => JSON.stringify(m)).join('\n');

/** Applies the manifests in one kubectl call; rejects with kubectl's errors (one line per refused object). */
export async function applyAll(manifests: readonly Manifest[], { serverSide = false } = {}): Promise<void> {
  if (manifests.length === 0) return;
  await runKubectl(['apply', ...(serverSide ? ['--server-side', '--field-manager=kubectl'] : []), '-f', '-'], asStream(manifests));
}

/** Asks for the deletion of every manifest's object in one call, without waiting; absent ones are fine. */
export async function deleteAll(manifests: readonly Manifest[]): Promise<void> {
  if (manifests.length === 0) return;
  await runKubectl(['delete', '--wait=false', '--ignore-not-found', '-f', '-'], asStream(manifests));
}

/**
 * Every stored object of the given resources, in all namespaces, by key: one kubectl call
 * however many objects are of interest (a LIST per resource, not a GET per object).
 */
export async function listAll(resources: Iterable<ApiResource>): Promise<Map<string, StoredObject>> {
  const names = [...new Set([...resources].map(Discovery.qualified))];
  const found = new Map<string, StoredObject>();
  if (names.length === 0) return found;
  const list = JSON.parse(await runKubectl(['get', names.join(','), '--all-namespaces', '-o', 'json'])) as { items?: StoredObject[] };
  for (const item of list.items ?? []) found.set(keyOf(idOfStored(item)), item);
  return found;
}

let objectApi: PlainObjectApi | undefined;

/**
 * One object, read straight from the API server; undefined when absent. For checks that run
 * once per case: a kubectl process each would cost more than the case.
 */
export async function readOne(manifest: Manifest, id: ObjectId): Promise<StoredObject | undefined> {
  if (!objectApi) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(inject('kubeconfigPath'));
    objectApi = PlainObjectApi.forConfig(kubeConfig);
  }
  const metadata = { name: id.name, ...(id.namespace ? { namespace: id.namespace } : {}) };
  try {
    return (await objectApi.read({ apiVersion: manifest.apiVersion, kind: manifest.kind, metadata })) as unknown as StoredObject;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}
