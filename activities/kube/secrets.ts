// Secrets of the control cluster: values that ProviderConfigs and specs name, read one key at a time,
// and connection Secrets (activities/connection-secret.ts), whose writes fail on a conflict
// rather than overwrite what someone else changed.
import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import { orUndefinedOn404 } from './api-errors';
import { FIELD_MANAGER } from './field-manager';

export class Secrets {
  constructor(private readonly core: CoreV1Api) {}

  /** One key's value, decoded; undefined when the Secret or the key is missing. */
  async value(namespace: string, name: string, key: string): Promise<string | undefined> {
    const secret = await this.read(namespace, name);
    const encoded = secret?.data?.[key];
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  }

  /** A missing one is undefined. */
  async read(namespace: string, name: string): Promise<V1Secret | undefined> {
    return orUndefinedOn404(() => this.core.readNamespacedSecret({ namespace, name }));
  }

  /** Fails with 409 when one of that name appeared since it was found missing. */
  async create(namespace: string, secret: V1Secret): Promise<V1Secret> {
    return this.core.createNamespacedSecret({ namespace, body: secret, fieldManager: FIELD_MANAGER });
  }

  /** Fails with 409 when it changed since it was read (its metadata carries the resourceVersion). */
  async replace(namespace: string, name: string, secret: V1Secret): Promise<V1Secret> {
    return this.core.replaceNamespacedSecret({ namespace, name, body: secret, fieldManager: FIELD_MANAGER });
  }
}
