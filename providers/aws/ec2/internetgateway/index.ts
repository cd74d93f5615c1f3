// The InternetGateway kind as the registry sees it: API, schemas, connector, polling and the
// reference that fills its (mutable) vpcId from a VPC.
import { lazyConnector, type ManagedKind } from '../../../../runtime/managed-kind';
import { vpcApi } from '../vpc/schema';
import { InternetGatewayObservation, InternetGatewayParameters, internetGatewayApi } from './schema';

export const internetGatewayKind: ManagedKind<InternetGatewayParameters, InternetGatewayObservation> = {
  api: internetGatewayApi,
  forProvider: InternetGatewayParameters,
  atProvider: InternetGatewayObservation,
  connector: lazyConnector(async () => (await import('./client')).internetGatewayConnector),
  // Attachments change only when someone changes them; a minute balances drift detection
  // against API calls. Attaching finishes within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
  references: [{ field: 'vpcId', to: vpcApi }],
};
