// For the client tests against moto: a kind's observeMany must say what its observe says,
// late initialization and connection details aside (a sweep only decides whom to wake), since
// a sweep wakes a resource on that answer alone.
import { expect } from 'vitest';
import type { ExternalClient } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';

export async function expectSweepAgrees<F, A>(client: ExternalClient<F, A>, mrs: ManagedResource<F, A>[]): Promise<void> {
  const swept = await client.observeMany!(mrs);
  for (const mr of mrs) {
    const { lateInitialized: _late, connectionDetails: _details, ...observed } = await client.observe(mr);
    expect(swept.get(mr.metadata.uid), `${mr.metadata.name}, swept`).toEqual(observed);
  }
}
