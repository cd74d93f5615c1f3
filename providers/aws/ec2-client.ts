// Builds an EC2 client from a managed resource's region and its ProviderConfig.
import { EC2Client } from '@aws-sdk/client-ec2';
import type { ConnectContext } from '../../runtime/external-client';
import { resolveAwsSettings } from './credentials';

export async function ec2ClientFor(region: string, providerConfigName: string | undefined, context: ConnectContext): Promise<EC2Client> {
  const settings = await resolveAwsSettings(providerConfigName ?? 'default', context);
  // The SDK retries throttling and 5xx a few times itself; longer backoff is the activity
  // retry policy's job, so keep the SDK's share short.
  return new EC2Client({ region, endpoint: settings.endpoint, credentials: settings.credentials, maxAttempts: 3 });
}
