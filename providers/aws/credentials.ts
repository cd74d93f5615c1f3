// Resolves a ProviderConfig into AWS SDK client settings. Credentials stay inside the activity
// that calls this: they are never returned to a workflow, logged, or written to status.
import { parse as parseIni } from 'ini';
import type { AwsCredentialIdentity } from '@aws-sdk/types';
import type { ConnectContext } from '../../runtime/external-client';
import { ClassifiedError } from '../../runtime/errors';
import { providerConfigApi, type ProviderConfigSpec } from './providerconfig';

export interface AwsClientSettings {
  /** Undefined means "use the SDK's default credential chain". */
  credentials?: AwsCredentialIdentity;
  endpoint?: string;
}

export async function resolveAwsSettings(providerConfigName: string, context: ConnectContext): Promise<AwsClientSettings> {
  const providerConfig = await context.getClusterObject(providerConfigApi, providerConfigName);
  if (!providerConfig) {
    throw new ClassifiedError('MissingConfiguration', `cannot get ProviderConfig "${providerConfigName}": not found`);
  }
  const spec = providerConfig.spec as ProviderConfigSpec;
  const endpoint = spec.endpoint?.url;
  if (spec.credentials.source === 'Environment') return { endpoint };

  const ref = spec.credentials.secretRef;
  if (!ref) throw new ClassifiedError('MissingConfiguration', 'ProviderConfig credentials.secretRef is required for source Secret');
  const file = await context.getSecretValue(ref.namespace, ref.name, ref.key);
  if (file === undefined) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `cannot read credentials: key "${ref.key}" of Secret ${ref.namespace}/${ref.name} not found`,
    );
  }
  return { credentials: credentialsFromIni(file, spec.profile ?? 'default'), endpoint };
}

/** Reads one profile of an AWS shared-credentials file. The message never echoes the file. */
export function credentialsFromIni(file: string, profile: string): AwsCredentialIdentity {
  const section = parseIni(file)[profile] as Record<string, string> | undefined;
  const accessKeyId = section?.aws_access_key_id;
  const secretAccessKey = section?.aws_secret_access_key;
  if (!accessKeyId || !secretAccessKey) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `credentials file has no aws_access_key_id and aws_secret_access_key in profile [${profile}]`,
    );
  }
  return { accessKeyId, secretAccessKey, sessionToken: section.aws_session_token || undefined };
}
