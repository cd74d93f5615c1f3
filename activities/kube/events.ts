// Kubernetes Events on managed resources (what `kubectl describe` shows), each one created new and
// never patched, so recording one never reads or races anything. activities/events.ts builds them.
import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';

export class Events {
  constructor(private readonly core: CoreV1Api) {}

  async create(event: CoreV1Event): Promise<void> {
    await this.core.createNamespacedEvent({ namespace: event.metadata.namespace!, body: event });
  }
}
