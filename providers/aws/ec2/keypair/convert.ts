// Pure conversions between EC2's view of a key pair and ours: atProvider, the name create asks
// for, late initialization, the up-to-date check and the connection details. No I/O here.
import type { KeyPairInfo } from '@aws-sdk/client-ec2';
import type { ConnectionDetails } from '#core/external-client';
import { tagDifferences } from '../../tags';
import type { KeyPairObservation, KeyPairParameters } from './schema';

export function toAtProvider(key: KeyPairInfo): KeyPairObservation {
  return {
    keyPairId: key.KeyPairId,
    keyName: key.KeyName,
    keyFingerprint: key.KeyFingerprint,
    keyType: key.KeyType,
    createTime: key.CreateTime?.toISOString(),
  };
}

/**
 * The name create asks EC2 for: the spec's, else a name already recorded (a user adopting an
 * existing key pair names it in crossplane.io/external-name), else the object's own name, as
 * Crossplane names external resources by default.
 */
export const keyNameFor = (spec: KeyPairParameters, externalName: string | undefined, objectName: string): string =>
  spec.keyName ?? externalName ?? objectName;

/** The default name EC2 settled on; the spec adopts it so it shows the truth. */
export function lateInitialize(spec: KeyPairParameters, key: KeyPairInfo): Partial<KeyPairParameters> | undefined {
  return spec.keyName === undefined && key.KeyName ? { keyName: key.KeyName } : undefined;
}

/** Only tags can drift: EC2 can change nothing else about a key pair after it exists. */
export function differences(key: KeyPairInfo, desiredTags: Record<string, string>): string[] {
  return tagDifferences(desiredTags, key.Tags);
}

/**
 * What a user of the key pair needs, without its secret: observe publishes these. Create adds
 * `privateKey`, the one value EC2 returns only once.
 */
export function publicDetails(key: Pick<KeyPairInfo, 'KeyName' | 'KeyPairId' | 'KeyFingerprint'>): ConnectionDetails {
  const details: ConnectionDetails = {};
  if (key.KeyName) details.keyName = key.KeyName;
  if (key.KeyPairId) details.keyPairId = key.KeyPairId;
  if (key.KeyFingerprint) details.fingerprint = key.KeyFingerprint;
  return details;
}
