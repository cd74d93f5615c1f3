// Builds EC2 clients from a managed resource's region and its ProviderConfig. Clients are
// cached per region, endpoint and credentials, so activities reuse their connection pools
// (and TLS sessions against real AWS) instead of building a client per call.
import { createHash } from 'node:crypto';
import { EC2Client } from '@aws-sdk/client-ec2';
import type { ConnectContext } from '../../runtime/external-client';
import { resolveAwsSettings, type AwsClientSettings } from './credentials';

const clients = new Map<string, EC2Client>();

/**
 * How long a resolved ProviderConfig (and its Secret) is reused. Every observe connects, so
 * without this each pass paid two extra API-server reads; a credential rotation takes effect
 * within this time.
 */
const SETTINGS_TTL_MS = 10_000;
const settingsCache = new Map<string, { settings: Promise<AwsClientSettings>; expires: number }>();

export async function ec2ClientFor(
  region: string,
  providerConfigName: string | undefined,
  context: ConnectContext,
): Promise<{ client: EC2Client; endpoint?: string }> {
  const settings = await cachedSettings(providerConfigName ?? 'default', context);
  const key = cacheKey(region, settings);
  let client = clients.get(key);
  if (!client) {
    // The SDK retries throttling and 5xx a few times itself; longer backoff is the activity
    // retry policy's job, so keep the SDK's share short.
    client = new EC2Client({ region, endpoint: settings.endpoint, credentials: settings.credentials, maxAttempts: 3 });
    clients.set(key, client);
  }
  return { client, endpoint: settings.endpoint };
}

function cachedSettings(providerConfigName: string, context: ConnectContext): Promise<AwsClientSettings> {
  const now = Date.now();
  const cached = settingsCache.get(providerConfigName);
  if (cached && cached.expires > now) return cached.settings;
  const settings = resolveAwsSettings(providerConfigName, context);
  settingsCache.set(providerConfigName, { settings, expires: now + SETTINGS_TTL_MS });
  // A failed read is not cached: the next attempt reads again.
  settings.catch(() => settingsCache.delete(providerConfigName));
  return settings;
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
