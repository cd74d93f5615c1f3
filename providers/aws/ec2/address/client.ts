// Wires EC2 SDK calls to the ExternalClient verbs for Elastic IP addresses. Decisions live in
// convert.ts; observe, the sweep and describe are the common path's (client-base.ts).
// AllocateAddress takes no client token, so an interrupted earlier attempt is found by the uid
// tag that AllocateAddress applies atomically.
import {
  AllocateAddressCommand,
  DescribeAddressesCommand,
  ReleaseAddressCommand,
  type Address,
  type DescribeAddressesCommandOutput,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { CreateAttempt, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { carriesUid, desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ec2Connector, isNotFound, present, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, toAtProvider } from './convert';
import { addressApi, type AddressObservation, type AddressParameters } from './schema';

type AddressResource = ManagedResource<AddressParameters, AddressObservation>;

/** DescribeAddresses reports every field observe compares, and has no pages: one call a sweep of 200. */
const addresses: Ec2KindDescription<AddressParameters, AddressObservation, Address, DescribeAddressesCommandOutput> = {
  noun: 'address',
  plural: 'addresses',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeAddressesCommand({ AllocationIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.Addresses,
  idOf: (address) => address.AllocationId,
  sweep: { filter: 'allocation-id' },
  observation,
};

export const addressConnector = ec2Connector<AddressParameters, AddressObservation>((api) => new AddressExternalClient(api));

export class AddressExternalClient extends Ec2KindClient<AddressParameters, AddressObservation, Address> {
  constructor(ec2: Ec2Api) {
    super(ec2, addresses);
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
    return this.updateExisting(mr, (allocationId, address) => this.ec2.syncTags(allocationId, desiredTags(addressApi, mr), address.Tags));
  }

  async delete(mr: AddressResource): Promise<string> {
    const allocationId = externalNameOf(mr);
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

  /** The tag filter does the work on EC2; the check keeps a server that ignores it (or an EC2-Classic address) out. */
  protected override async findByUid(uid: string): Promise<Address | undefined> {
    return (await this.taggedWith(uid)).find((a) => a.AllocationId && carriesUid(a.Tags, uid));
  }
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
