// The Address kind as the registry sees it: API, schemas, connector and polling. It references
// nothing; a NATGateway references it by its allocation ID (its external name).
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { AddressObservation, AddressParameters, addressApi } from './schema';

export const addressKind: ManagedKind<AddressParameters, AddressObservation> = {
  api: addressApi,
  forProvider: AddressParameters,
  atProvider: AddressObservation,
  connector: lazyConnector(async () => (await import('./client')).addressConnector),
  // Only tags can drift, which the sweep looks for every minute; an address is usable as soon
  // as it is allocated.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
