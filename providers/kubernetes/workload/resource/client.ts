// The KubernetesApplicationResource's external client: its template and the Secrets it lists,
// in the KubernetesCluster its application is scheduled to, through the remote-cluster access
// Object uses too (../../remote/cluster.ts): reads from the shared watches, which wake the
// resource when its object changes there; server-side applies with a field manager of its own;
// the dry-run drift check. Source Secrets are read through ConnectContext.readControlObject, so
// a change to one wakes the resource. Secret data is copied as read (base64) and never appears
// in a message, a summary or an observation: those end up in status, events and history.
import type { KubernetesObject } from '@kubernetes/client-node';
import { ClassifiedError } from '#core/errors';
import type {
  ConnectContext,
  Connector,
  ControlObjectKey,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
} from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { KubernetesClusterGone, connectToKubernetesCluster } from '../../cluster-connection';
import { RemoteCluster } from '../../remote/cluster';
import { describeTarget, type DesiredObject } from '../../remote/target';
import type { TargetKey } from '../../target-watches';
import { submittedReadiness } from './readiness';
import { NotScheduled, scheduledCluster } from './scheduling';
import type { ClusterReference, ResourceObservation } from './schema';
import {
  desiredTemplate,
  isOurs,
  propagatedSecret,
  propagatedSecretName,
  propagatedSecretsOf,
  refusal,
  secretNamespaceOf,
  secretsMadeWith,
  sourceSecretKey,
  specOf,
  wantedSecretNames,
} from './submission';

type Resource = ManagedResource<unknown, ResourceObservation>;
type Observation = ExternalObservation<unknown, ResourceObservation>;

export const kubernetesApplicationResourceConnector: Connector<unknown, ResourceObservation> = {
  async connect(mr, context): Promise<ExternalClient<unknown, ResourceObservation>> {
    let cluster: ClusterReference;
    try {
      cluster = await scheduledCluster(mr, context);
    } catch (error) {
      // Never scheduled, so nothing was made anywhere: its deletion has nothing to wait for.
      if (error instanceof NotScheduled && mr.metadata.deletionTimestamp) return neverScheduled(mr, context);
      throw error;
    }
    const where = `KubernetesCluster ${cluster.namespace}/${cluster.name}`;
    let connection;
    try {
      connection = await connectToKubernetesCluster(cluster, context, mr as ManagedResource);
    } catch (error) {
      // Unregistered while this resource was being deleted (`kubectl delete -f dir/` takes an
      // application and its cluster at once): that cluster can no longer be reached, now or
      // later, so waiting would hold the resource, and its application, for ever. Whatever it
      // made there stays, as Crossplane's workload controller left it.
      if (error instanceof KubernetesClusterGone && mr.metadata.deletionTimestamp) return unregistered(mr, context, where);
      throw error;
    }
    return new ResourceClient(new RemoteCluster(connection, `target cluster (${where})`, context.wake), cluster, where, context);
  },
};

function unregistered(mr: Resource, context: ConnectContext, where: string): ExternalClient<unknown, ResourceObservation> {
  context.forgetControlObjects?.(mr.metadata.uid);
  const refuse = () => Promise.reject(new ClassifiedError('MissingConfiguration', `${where} is no longer registered`));
  return {
    observe: async () => ({ resourceExists: false, resourceUpToDate: false }),
    create: refuse,
    update: refuse,
    delete: async () => ({ summary: `${where} is no longer registered: nothing can be reached to delete`, gone: true }),
  };
}

function neverScheduled(mr: Resource, context: ConnectContext): ExternalClient<unknown, ResourceObservation> {
  context.forgetControlObjects?.(mr.metadata.uid);
  const refuse = () => Promise.reject(new NotScheduled('it is being deleted'));
  return {
    observe: async () => ({ resourceExists: false, resourceUpToDate: false }),
    create: refuse,
    update: refuse,
    delete: async () => ({ summary: 'never scheduled to a KubernetesCluster: nothing to delete', gone: true }),
  };
}

class ResourceClient implements ExternalClient<unknown, ResourceObservation> {
  constructor(
    private readonly remote: RemoteCluster,
    private readonly cluster: ClusterReference,
    /** `KubernetesCluster complex/wordpress-demo-cluster`, for messages. */
    private readonly where: string,
    private readonly context: ConnectContext,
  ) {}

  async observe(mr: Resource): Promise<Observation> {
    const template = await this.remote.placed(desiredTemplate(mr));
    const deleting = Boolean(mr.metadata.deletionTimestamp);
    // Whether anything of ours is left, which releases the resource, is the server's answer
    // (see delete): the watch may not yet hold what the pass just before made.
    const live = await this.remote.read(mr, this.remote.keyOf(template), { fresh: deleting });
    const atProvider = this.atProviderOf(live);
    if (deleting) {
      const left = await this.ownedObjects(mr, template, live);
      if (left.length === 0) this.release(mr, template, live);
      return { resourceExists: left.length > 0, resourceUpToDate: true, atProvider };
    }
    if (!live) return { resourceExists: false, resourceUpToDate: false, atProvider };
    this.refuseUnlessOurs(mr, live, this.remote.keyOf(template));
    const drift = await this.drift(mr, template, live);
    const upToDate = drift.length === 0;
    return {
      resourceExists: true,
      resourceUpToDate: upToDate,
      ...(upToDate ? submittedReadiness(live) : { readiness: 'Creating' }),
      atProvider,
      diff: upToDate ? undefined : drift.join('; '),
    };
  }

  async create(mr: Resource): Promise<ExternalCreation<unknown, ResourceObservation>> {
    const { template, applied, summary } = await this.submit(mr);
    return {
      externalName: template.metadata.name,
      summary,
      // The apply answered the object as it is now: the next pass need not ask again.
      observation: { resourceExists: true, resourceUpToDate: true, ...submittedReadiness(applied), atProvider: this.atProviderOf(applied) },
    };
  }

  async update(mr: Resource): Promise<string> {
    return (await this.submit(mr)).summary;
  }

  async delete(mr: Resource): Promise<ExternalDeletion> {
    const template = await this.remote.placed(desiredTemplate(mr));
    const key = this.remote.keyOf(template);
    // From the server, not the watch: the watch may not have seen a create of the pass just
    // before (a name another resource had just freed), and an object of ours taken for absent,
    // or for the previous owner's, would be left behind for ever. Deletes are rare; the GET is
    // cheap beside what a leaked object costs.
    const live = await this.remote.read(mr, key, { fresh: true });
    const ours = live !== undefined && isOurs(live, mr.metadata.uid);
    const removed = await this.removeSecrets(mr, secretsMadeWith(mr, ours ? live : undefined));
    // An object that is not ours was never touched and is not waited for.
    const outcome = ours ? await this.remote.delete(mr, template) : 'already gone';
    const gone = outcome !== 'deleting';
    if (gone) this.release(mr, template, live);
    const what = [outcome === 'already gone' ? `${describeTarget(key)} is gone` : `deleted ${describeTarget(key)}`];
    if (removed.length > 0) what.push(`deleted ${plural(removed.length, 'propagated Secret')}`);
    return { summary: what.join('; '), gone };
  }

  /**
   * Applies the Secrets first, then the template (its containers may need them at once), and
   * removes the Secrets no longer listed. Nothing is written when any of them is not ours: an
   * apply is forced, and would take the fields from their owner.
   */
  private async submit(mr: Resource): Promise<{ template: DesiredObject; applied: KubernetesObject; summary: string }> {
    const template = await this.remote.placed(desiredTemplate(mr));
    const key = this.remote.keyOf(template);
    const live = await this.remote.read(mr, key);
    if (live) this.refuseUnlessOurs(mr, live, key);
    const secrets = await this.propagatedSecrets(mr);
    const secretsThere: boolean[] = [];
    for (const secret of secrets) {
      const secretKey = this.remote.keyOf(secret);
      const have = await this.remote.read(mr, secretKey);
      if (have) this.refuseUnlessOurs(mr, have, secretKey);
      secretsThere.push(have !== undefined);
    }
    // What is not there yet is claimed, not forced: of two resources racing for one new object,
    // the later gets a conflict (and then refuses, seeing the other's uid) instead of the object.
    for (const [index, secret] of secrets.entries()) await this.remote.apply(mr, secret, { claim: !secretsThere[index] });
    const applied = await this.remote.apply(mr, template, { claim: !live });
    const wanted = new Set(wantedSecretNames(mr));
    const removed = await this.removeSecrets(
      mr,
      propagatedSecretsOf(live).filter((name) => !wanted.has(name)),
    );
    const what = [
      secrets.length > 0 ? `with ${plural(secrets.length, 'propagated Secret')}` : '',
      removed.length > 0 ? `removed ${plural(removed.length, 'Secret')} no longer listed` : '',
    ].filter(Boolean);
    const summary = `applied ${describeTarget(key)} to ${this.where}${what.length ? `, ${what.join(', ')}` : ''}`;
    return { template, applied, summary };
  }

  /** What differs from the spec, for the diff: empty when the template and every Secret are as specified. */
  private async drift(mr: Resource, template: DesiredObject, live: KubernetesObject): Promise<string[]> {
    const drift: string[] = [];
    if (!(await this.remote.isUpToDate(mr, template, live)))
      drift.push(`${describeTarget(this.remote.keyOf(template))} differs from the template`);
    for (const secret of await this.propagatedSecrets(mr)) {
      const key = this.remote.keyOf(secret);
      const have = await this.remote.read(mr, key);
      if (have) this.refuseUnlessOurs(mr, have, key);
      if (!have) drift.push(`${describeTarget(key)} is missing`);
      else if (!(await this.remote.isUpToDate(mr, secret, have))) drift.push(`${describeTarget(key)} differs from its source`);
    }
    const wanted = new Set(wantedSecretNames(mr));
    const stale = propagatedSecretsOf(live).filter((name) => !wanted.has(name));
    if (stale.length > 0) drift.push(`Secrets no longer listed remain: ${stale.join(', ')}`);
    return drift;
  }

  /** The Secrets to propagate, from their sources in the resource's namespace. */
  private async propagatedSecrets(mr: Resource): Promise<DesiredObject[]> {
    const spec = specOf(mr);
    const namespace = mr.metadata.namespace ?? '';
    const secrets: DesiredObject[] = [];
    for (const { name } of spec.secrets ?? []) {
      const source = await this.readControlObject(sourceSecretKey(namespace, name), mr);
      if (!source) throw new ClassifiedError('MissingConfiguration', `cannot propagate Secret ${namespace}/${name}: not found`);
      secrets.push(propagatedSecret(mr, name, source, secretNamespaceOf(spec)));
    }
    return secrets;
  }

  /** Deletes those of the named propagated Secrets that are ours, and stops following them and their sources. */
  private async removeSecrets(mr: Resource, names: readonly string[]): Promise<string[]> {
    const removed: string[] = [];
    for (const name of names) {
      const key = this.secretKey(mr, name);
      // Fresh for the reason the delete's own read is.
      const have = await this.remote.read(mr, key, { fresh: true });
      if (have && isOurs(have, mr.metadata.uid)) {
        await this.remote.delete(mr, { apiVersion: key.apiVersion, kind: key.kind, metadata: { name, namespace: key.namespace } });
        removed.push(name);
      }
      this.remote.release(mr, [key]);
      const source = name.slice(propagatedSecretName(mr.metadata.name, '').length);
      this.context.forgetControlObjects?.(mr.metadata.uid, sourceSecretKey(mr.metadata.namespace ?? '', source));
    }
    return removed;
  }

  /** What of ours is still in the cluster while the resource is being deleted. */
  private async ownedObjects(mr: Resource, template: DesiredObject, live: KubernetesObject | undefined): Promise<TargetKey[]> {
    const ours = live !== undefined && isOurs(live, mr.metadata.uid);
    const left = ours ? [this.remote.keyOf(template)] : [];
    for (const name of secretsMadeWith(mr, ours ? live : undefined)) {
      const key = this.secretKey(mr, name);
      const have = await this.remote.read(mr, key, { fresh: true });
      if (have && isOurs(have, mr.metadata.uid)) left.push(key);
    }
    return left;
  }

  private refuseUnlessOurs(mr: Resource, live: KubernetesObject, key: TargetKey): void {
    const why = refusal(live, mr.metadata.uid, key, this.where);
    if (why) throw new ClassifiedError('InvalidInput', why);
  }

  private secretKey(mr: Resource, name: string): TargetKey {
    return this.remote.keyOf({ apiVersion: 'v1', kind: 'Secret', namespace: secretNamespaceOf(specOf(mr)), name });
  }

  private readControlObject(key: ControlObjectKey, mr: Resource): Promise<Record<string, unknown> | undefined> {
    if (!this.context.readControlObject) throw new Error('this worker cannot read objects of the control cluster');
    return this.context.readControlObject(key, mr as ManagedResource);
  }

  private atProviderOf(live: KubernetesObject | undefined): ResourceObservation {
    const remote = (live as { status?: unknown } | undefined)?.status;
    return { clusterRef: this.cluster, ...(remote && typeof remote === 'object' ? { remote: remote as Record<string, unknown> } : {}) };
  }

  /** The resource and its cluster have parted: stop following what it read and forget what we knew. */
  private release(mr: Resource, template: DesiredObject, live: KubernetesObject | undefined): void {
    const secrets = secretsMadeWith(mr, live).map((name) => this.secretKey(mr, name));
    this.remote.release(mr, [this.remote.keyOf(template), ...secrets]);
    this.context.forgetControlObjects?.(mr.metadata.uid);
  }
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
