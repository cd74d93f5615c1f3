// TEMPORARY minimal Object client (engine bring-up); the full client replaces this file.
import { ApiException, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import type { Connector, ExternalClient, ExternalObservation } from '../../../runtime/external-client';
import type { ManagedResource } from '../../../runtime/managed-resource';
import { ClassifiedError } from '../../../runtime/errors';
import { connectToCluster } from '../cluster-connection';
import { TargetWatches, type TargetKey } from '../target-watches';
import type { ObjectObservation, ObjectParameters } from './schema';
import { protectTarget } from './protect';

type Mr = ManagedResource<ObjectParameters, ObjectObservation>;
const watches = new TargetWatches();

function desired(mr: Mr): KubernetesObject {
  const manifest = mr.spec.forProvider.manifest;
  return { ...manifest, metadata: { ...manifest.metadata, name: manifest.metadata?.name ?? mr.metadata.name } } as KubernetesObject;
}

function subset(want: unknown, have: unknown): boolean {
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    if (!have || typeof have !== 'object') return false;
    return Object.entries(want).every(([k, v]) => subset(v, (have as Record<string, unknown>)[k]));
  }
  return JSON.stringify(want) === JSON.stringify(have);
}

function wrap(error: unknown, providerConfig: string): never {
  if (error instanceof ApiException) {
    const body = typeof error.body === 'string' ? (JSON.parse(error.body || '{}') as { message?: string }) : (error.body as { message?: string });
    const message = `target cluster (ProviderConfig "${providerConfig}"): ${body?.message ?? `HTTP ${error.code}`}`;
    if (error.code === 400 || error.code === 422) throw new ClassifiedError('InvalidInput', message);
    if (error.code === 401 || error.code === 403) throw new ClassifiedError('NotAuthorized', message);
    throw new ClassifiedError('Transient', message);
  }
  throw error;
}

export const objectConnector: Connector<ObjectParameters, ObjectObservation> = {
  async connect(mr, context): Promise<ExternalClient<ObjectParameters, ObjectObservation>> {
    const providerConfig = mr.spec.providerConfigRef?.name ?? 'default';
    const connection = await connectToCluster(providerConfig, context);
    const api = KubernetesObjectApi.makeApiClient(connection.kubeConfig);
    const keyOf = (m: Mr): TargetKey => {
      const d = desired(m);
      return { cluster: connection.key, apiVersion: d.apiVersion!, kind: d.kind!, namespace: d.metadata?.namespace ?? '', name: d.metadata!.name! };
    };
    const observation = (m: Mr, live: KubernetesObject | undefined): ExternalObservation<ObjectParameters, ObjectObservation> =>
      live
        ? { resourceExists: true, resourceUpToDate: subset(desired(m), live), readiness: 'Available', atProvider: { manifest: live as Record<string, unknown> } }
        : { resourceExists: false, resourceUpToDate: false };
    return {
      async observe(m) {
        const key = keyOf(m);
        if (context.wake) watches.follow(key, connection.kubeConfig, m.metadata.uid, () => context.wake!(m));
        const cached = await watches.cached(key, connection.kubeConfig);
        if (cached !== undefined) return observation(m, cached ?? undefined);
        try {
          return observation(m, await api.read(desired(m) as never));
        } catch (error) {
          if (error instanceof ApiException && error.code === 404) return observation(m, undefined);
          return wrap(error, providerConfig);
        }
      },
      async create(m) {
        const applied = await api
          .patch(desired(m), undefined, undefined, `chronoplane/${m.metadata.name}`, true, PatchStrategy.ServerSideApply)
          .catch((e: unknown) => wrap(e, providerConfig));
        watches.wrote(keyOf(m), applied.metadata?.resourceVersion);
        return { externalName: applied.metadata!.name!, summary: `applied ${applied.kind} ${applied.metadata!.name}`, observation: observation(m, applied) };
      },
      async update(m) {
        const applied = await api
          .patch(desired(m), undefined, undefined, `chronoplane/${m.metadata.name}`, true, PatchStrategy.ServerSideApply)
          .catch((e: unknown) => wrap(e, providerConfig));
        watches.wrote(keyOf(m), applied.metadata?.resourceVersion);
        return `applied ${applied.kind} ${applied.metadata!.name}`;
      },
      async protect(_m, observed, inUse) {
        const live = observed.atProvider?.manifest as KubernetesObject | undefined;
        return live ? protectTarget(api, live, inUse).catch((e: unknown) => wrap(e, providerConfig)) : undefined;
      },
      async delete(m) {
        try {
          await api.delete(desired(m));
          return { summary: 'deleted', gone: false };
        } catch (error) {
          if (error instanceof ApiException && error.code === 404) {
            watches.unfollow(keyOf(m), m.metadata.uid);
            return { summary: 'already gone', gone: true };
          }
          return wrap(error, providerConfig);
        }
      },
    };
  },
};
