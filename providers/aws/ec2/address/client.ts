// Wires EC2 SDK calls to the ExternalClient verbs for Elastic IP addresses. Decisions live in
// convert.ts. AllocateAddress takes no client token, so an interrupted earlier attempt is found
// by the uid tag that AllocateAddress applies atomically.
import {
  AllocateAddressCommand,
  DescribeAddressesCommand,
  ReleaseAddressCommand,
  type Address,
  type EC2PaginationConfiguration,
  type Filter,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import { ClassifiedError } from '../../../../runtime/errors';
import type { CreateAttempt, ExternalClient, ExternalObservation, SweptObservation } from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { carriesUid, desiredTags, mapToTags } from '../../tags';
import { ABSENT, ec2Connector, isNotFound, present, sweptByUid, uidFilter, withExternalNames, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, toAtProvider } from './convert';
import { addressApi, type AddressObservation, type AddressParameters } from './schema';

type AddressResource = ManagedResource<AddressParameters, AddressObservation>;

export const addressConnector = ec2Connector<AddressParameters, AddressObservation>((api) => new AddressExternalClient(api));

export class AddressExternalClient implements ExternalClient<AddressParameters, AddressObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: AddressResource): Promise<ExternalObservation<AddressParameters, AddressObservation>> {
    const allocationId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!allocationId) return ABSENT;
    const address = await this.describe(allocationId);
    return address ? observation(mr, address) : ABSENT;
  }

  /** One DescribeAddresses per 200 addresses, which report every field observe compares. */
  async observeMany(mrs: readonly AddressResource[]): Promise<Map<string, SweptObservation<AddressObservation>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const addresses = await this.ec2.describeMatching(
      'cannot describe addresses',
      'allocation-id',
      ids,
      describeAddressesOnce,
      (p) => p.Addresses,
    );
    return sweptByUid(named, new Map(addresses.map((address) => [address.AllocationId!, address])), observation);
  }

  async create(mr: AddressResource, attempt?: CreateAttempt) {
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    if (earlier) {
      return {
        externalName: earlier.AllocationId!,
        summary: `found address ${earlier.AllocationId} (${earlier.PublicIp}) made by an earlier attempt`,
      };
    }
    const p = mr.spec.forProvider;
    const allocated = await this.ec2.call(`cannot allocate an Elastic IP address in ${p.networkBorderGroup ?? p.region}`, (sdk) =>
      sdk.send(
        new AllocateAddressCommand({
          Domain: p.domain,
          PublicIpv4Pool: p.publicIpv4Pool,
          NetworkBorderGroup: p.networkBorderGroup,
          TagSpecifications: [{ ResourceType: 'elastic-ip', Tags: mapToTags(desiredTags(addressApi, mr)) }],
        }),
      ),
    );
    if (!allocated.AllocationId) {
      // An EC2-Classic address has no allocation id to record, so it could never be found again.
      await this.ec2.call(`cannot release EC2-Classic address ${allocated.PublicIp}`, (sdk) =>
        sdk.send(new ReleaseAddressCommand({ PublicIp: allocated.PublicIp })),
      );
      throw new ClassifiedError(
        'InvalidInput',
        `EC2 allocated ${allocated.PublicIp} as an EC2-Classic (standard) address, which has no allocation ID; it was released again: use domain vpc`,
      );
    }
    return {
      externalName: allocated.AllocationId,
      summary: `allocated address ${allocated.AllocationId} (${allocated.PublicIp}) in ${p.networkBorderGroup ?? p.region}`,
    };
  }

  async update(mr: AddressResource): Promise<string> {
    const allocationId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const address = await this.describe(allocationId);
    if (!address) return `address ${allocationId} is gone; nothing to update`;
    const done = await this.ec2.syncTags(allocationId, desiredTags(addressApi, mr), address.Tags);
    return `updated address ${allocationId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: AddressResource): Promise<string> {
    const allocationId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!allocationId) return 'no address was recorded; nothing to delete';
    const action = `cannot release address ${allocationId}`;
    // InvalidIPAddress.InUse: still associated, typically with a NAT gateway EC2 is still
    // deleting. That clears by itself, so it is worth a retry, unlike most 400s.
    const outcome = await this.ec2.callUnless(action, 'InvalidIPAddress.InUse', async (sdk) => {
      try {
        // EC2 looks for the address in the network border group given, the region's by default.
        await sdk.send(
          new ReleaseAddressCommand({ AllocationId: allocationId, NetworkBorderGroup: mr.spec.forProvider.networkBorderGroup }),
        );
        return 'released' as const;
      } catch (error) {
        if (isNotFound(error)) return 'gone' as const;
        throw error;
      }
    });
    if (outcome === undefined) {
      throw new ClassifiedError('Transient', `${action}: it is still associated; EC2 frees it once what uses it (a NAT gateway) is gone`);
    }
    return outcome === 'released' ? `released address ${allocationId}` : `address ${allocationId} was already gone`;
  }

  private describe(allocationId: string): Promise<Address | undefined> {
    return this.ec2.find(
      `cannot describe address ${allocationId}`,
      async (sdk) => (await sdk.send(new DescribeAddressesCommand({ AllocationIds: [allocationId] }))).Addresses?.[0],
    );
  }

  /** The tag filter does the work on EC2; the check keeps a server that ignores it (or an EC2-Classic address) out. */
  private async findByUid(uid: string): Promise<Address | undefined> {
    const found = await this.ec2.call('cannot look for an earlier address', (sdk) =>
      sdk.send(new DescribeAddressesCommand({ Filters: uidFilter(uid) })),
    );
    return found.Addresses?.find((a) => a.AllocationId && carriesUid(a.Tags, uid));
  }
}

/** DescribeAddresses has no pages: one call answers for every address its filter matches. */
async function* describeAddressesOnce(config: EC2PaginationConfiguration, input: { Filters: Filter[] }) {
  yield await config.client.send(new DescribeAddressesCommand(input));
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: AddressResource, address: Address): ExternalObservation<AddressParameters, AddressObservation> {
  return present(mr, {
    tags: address.Tags,
    differences: differences(address, desiredTags(addressApi, mr)),
    // An allocated address can be used at once; it has no lifecycle states.
    readiness: 'Available',
    atProvider: toAtProvider(address),
    lateInitialized: lateInitialize(mr.spec.forProvider, address),
  });
}
