// Resolves a ProviderConfig or ClusterProviderConfig into AWS SDK client settings. Credentials stay inside the activity
// that calls this: they are never returned to a workflow, logged, or written to status.
import { parse as parseIni } from 'ini';
import type { AwsCredentialIdentity } from '@aws-sdk/types';
import type { ConnectContext } from '#core/external-client';
import { ClassifiedError } from '#core/errors';
import { readProviderConfig, type ConfigUser, type ResolvedProviderConfig } from '#runtime/provider-config';
import { awsProviderConfigKinds, OWN_CREDENTIALS_ONLY, type ClusterProviderConfigSpec } from './providerconfig';

export interface AwsClientSettings {
  /** Undefined means "use the SDK's default credential chain". */
  credentials?: AwsCredentialIdentity;
  endpoint?: string;
}

/** A config of either kind; a namespaced ProviderConfig's spec simply has no namespaceSelector. */
export type AwsProviderConfig = ResolvedProviderConfig<ClusterProviderConfigSpec>;

/**
 * Reads the ProviderConfig or ClusterProviderConfig that `mr` names and the credentials it points
 * at. Whether `mr`'s namespace may use it is not decided here (it depends on more than the
 * config): callers check runtime/provider-config.ts' checkProviderConfigUse on every use.
 */
export async function readAwsSettings(
  mr: ConfigUser,
  context: ConnectContext,
): Promise<{ config: AwsProviderConfig; settings: AwsClientSettings }> {
  const config = await readProviderConfig<ClusterProviderConfigSpec>(mr, awsProviderConfigKinds, context);
  const { spec } = config;
  const endpoint = spec.endpoint?.url;
  if (spec.credentials?.source === 'Environment') {
    // Admission refuses it too; this holds for a config stored before that rule.
    if (config.namespace !== undefined) throw new ClassifiedError('NotAuthorized', `${config.description}: ${OWN_CREDENTIALS_ONLY}`);
    return { config, settings: { endpoint } };
  }

  const ref = spec.credentials?.secretRef;
  if (!ref) throw new ClassifiedError('MissingConfiguration', `${config.description}: credentials.secretRef is required for source Secret`);
  const file = await config.readSecret(ref);
  if (file === undefined) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `cannot read credentials of ${config.description}: key "${ref.key}" of Secret ${ref.namespace}/${ref.name} not found`,
    );
  }
  return { config, settings: { credentials: credentialsFromIni(file, spec.profile ?? 'default'), endpoint } };
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
