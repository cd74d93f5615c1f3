// Builds EC2 clients from a managed resource's region and its ProviderConfig or
// ClusterProviderConfig. Clients are cached per region, endpoint and credentials, so activities
// reuse their connection pools (and TLS sessions against real AWS) instead of building a client
// per call.
import { createHash } from 'node:crypto';
import { EC2Client } from '@aws-sdk/client-ec2';
import type { ConnectContext } from '#core/external-client';
import { checkProviderConfigUse, providerConfigScopeKey, type ConfigUser } from '#runtime/provider-config';
import { readAwsSettings, type AwsClientSettings, type AwsProviderConfig } from './credentials';
import { countEc2Calls } from './call-metrics';

const clients = new Map<string, EC2Client>();

/**
 * How long a resolved config (and its Secret) is reused. Every observe connects, so without
 * this each pass paid two extra API-server reads; a credential rotation takes effect within
 * this time. Keyed by the config's full scope (kind, namespace, name), so team-b's
 * ProviderConfig "creds" never answers for team-a's.
 */
const SETTINGS_TTL_MS = 10_000;
const settingsCache = new Map<string, { resolved: Promise<ResolvedSettings>; expires: number }>();

interface ResolvedSettings {
  config: AwsProviderConfig;
  settings: AwsClientSettings;
}

export async function ec2ClientFor(
  region: string,
  mr: ConfigUser,
  context: ConnectContext,
): Promise<{ client: EC2Client; endpoint?: string }> {
  const { config, settings } = await cachedSettings(mr, context);
  // On every use, cached or not: whether this namespace may use the config depends on the
  // namespace (its labels), not only on the config.
  await checkProviderConfigUse(config, mr.metadata.namespace, context);
  const key = cacheKey(region, settings);
  let client = clients.get(key);
  if (!client) {
    // The SDK retries throttling and 5xx a few times itself; longer backoff is the activity
    // retry policy's job, so keep the SDK's share short.
    client = new EC2Client({ region, endpoint: settings.endpoint, credentials: settings.credentials, maxAttempts: 3 });
    countEc2Calls(client);
    clients.set(key, client);
  }
  return { client, endpoint: settings.endpoint };
}

function cachedSettings(mr: ConfigUser, context: ConnectContext): Promise<ResolvedSettings> {
  const scope = providerConfigScopeKey(mr);
  const now = Date.now();
  const cached = settingsCache.get(scope);
  if (cached && cached.expires > now) return cached.resolved;
  const entry = { resolved: readAwsSettings(mr, context), expires: now + SETTINGS_TTL_MS };
  settingsCache.set(scope, entry);
  // A failed read is not cached: the next attempt reads again.
  entry.resolved.catch(() => {
    if (settingsCache.get(scope) === entry) settingsCache.delete(scope);
  });
  return entry.resolved;
}

/** For tests: forget resolved configs. */
export function forgetAwsSettings(): void {
  settingsCache.clear();
}

/** Hashed, so that no secret is ever used as a map key. */
function cacheKey(region: string, { endpoint, credentials }: AwsClientSettings): string {
  return createHash('sha256')
    .update(
      [region, endpoint ?? '', credentials?.accessKeyId ?? '', credentials?.secretAccessKey ?? '', credentials?.sessionToken ?? ''].join(
        '\0',
      ),
    )
    .digest('hex');
}
