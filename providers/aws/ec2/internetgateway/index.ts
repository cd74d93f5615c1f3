// The InternetGateway kind as the registry sees it: API, schemas, connector, polling and the
// reference that fills its (mutable) vpcId from a VPC.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { vpcApi } from '../vpc/schema';
import { InternetGatewayObservation, InternetGatewayParameters, internetGatewayApi } from './schema';

export const internetGatewayKind: ManagedKind<InternetGatewayParameters, InternetGatewayObservation> = {
  api: internetGatewayApi,
  forProvider: InternetGatewayParameters,
  atProvider: InternetGatewayObservation,
  connector: lazyConnector(async () => (await import('./client')).internetGatewayConnector),
  // Attachments change only when someone changes them; the sweep looks for that every minute.
  // Attaching finishes within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  references: [{ field: 'vpcId', to: vpcApi }],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
