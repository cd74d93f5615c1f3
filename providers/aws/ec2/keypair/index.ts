// The KeyPair kind as the registry sees it: API, schemas, connector and poll rhythm.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { KeyPairObservation, KeyPairParameters, keyPairApi } from './schema';

export const keyPairKind: ManagedKind<KeyPairParameters, KeyPairObservation> = {
  api: keyPairApi,
  forProvider: KeyPairParameters,
  atProvider: KeyPairObservation,
  connector: lazyConnector(async () => (await import('./client')).keyPairConnector),
  // Only tags can drift; a key pair is usable as soon as it exists.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
