// Wires EC2 SDK calls to the ExternalClient verbs for instances. Decisions live in convert.ts,
// the RunInstances request in launch.ts, update's calls in changes.ts; the sweep and describe
// are the common path's (client-base.ts). The external name is the instance id.
//
// User data is read from its Secret inside the verbs only (create, observe, update); it goes to
// EC2 base64 encoded and is compared by digest. No summary, diff, error or status ever holds it.
import {
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
  paginateDescribeInstances,
  type DescribeInstancesCommandOutput,
  type Instance,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, Connector, ExternalCreation, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { UID_TAG, desiredTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ABSENT, ec2Connector, present, type Ec2Api } from '../ec2-api';
import { InstanceChanges } from './changes';
import {
  LIVE_STATES,
  USER_DATA_CHANGED,
  connectionDetailsOf,
  differences,
  isTerminated,
  lateInitialize,
  readinessOf,
  toAtProvider,
  userDataDifference,
  userTagsOf,
} from './convert';
import { runInstancesInput } from './launch';
import { instanceApi, type InstanceObservation, type InstanceParameters } from './schema';

type InstanceResource = ManagedResource<InstanceParameters, InstanceObservation>;

/**
 * DescribeInstances reports every field observe compares but the user data: that takes a
 * DescribeInstanceAttribute call per instance, so the sweep takes it as the spec has it
 * (unsweptFields: userDataSecretRef) and only an instance's own pass checks it, at least every
 * safety net (six hours). A terminated instance, which EC2 lists for an hour, counts as gone.
 */
const instances: Ec2KindDescription<InstanceParameters, InstanceObservation, Instance, DescribeInstancesCommandOutput> = {
  noun: 'instance',
  plural: 'instances',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeInstancesCommand({ InstanceIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.Reservations?.flatMap((r) => r.Instances ?? []),
  idOf: (instance) => instance.InstanceId,
  sweep: { filter: 'instance-id', paginate: paginateDescribeInstances },
  observation: (mr, instance) => observation(mr, instance, undefined),
  isGone: isTerminated,
};

/** The client needs the connect context too: it reads the user data Secret. */
export const instanceConnector: Connector<InstanceParameters, InstanceObservation> = {
  connect: (mr, context) =>
    ec2Connector<InstanceParameters, InstanceObservation>((api) => new InstanceExternalClient(api, context)).connect(mr, context),
};

export class InstanceExternalClient extends Ec2KindClient<InstanceParameters, InstanceObservation, Instance> {
  constructor(
    ec2: Ec2Api,
    private readonly context: Pick<ConnectContext, 'getSecretValue'>,
  ) {
    super(ec2, instances);
  }

  /** With the user data, which takes a call of its own, and the connection details. */
  override async observe(mr: InstanceResource): Promise<ExternalObservation<InstanceParameters, InstanceObservation>> {
    const instanceId = externalNameOf(mr);
    if (!instanceId) return ABSENT;
    const instance = await this.describe(instanceId);
    if (!instance) return ABSENT;
    const userData = await this.userDataDifference(mr, instanceId);
    return { ...observation(mr, instance, userData), connectionDetails: connectionDetailsOf(instance) };
  }

  async create(mr: InstanceResource): Promise<ExternalCreation<InstanceParameters, InstanceObservation>> {
    // Two guards against a twin: our uid tag, which RunInstances applies atomically, finds an
    // instance an interrupted attempt launched; and the client token makes EC2 itself answer
    // a repeated RunInstances with that instance (moto ignores tokens, AWS does not).
    const earlier = await this.findLiveByUid(mr.metadata.uid);
    if (earlier?.InstanceId) {
      return { externalName: earlier.InstanceId, summary: `found instance ${earlier.InstanceId} launched by an earlier attempt` };
    }
    const p = mr.spec.forProvider;
    const userData = p.userDataSecretRef ? await this.requiredUserData(mr) : undefined;
    const reservation = await this.ec2.call(`cannot launch a ${p.instanceType} instance of ${p.imageId}`, (sdk) =>
      sdk.send(new RunInstancesCommand(runInstancesInput(mr, userData))),
    );
    const instance = reservation.Instances![0]!;
    const where = instance.SubnetId ? ` in subnet ${instance.SubnetId}` : '';
    return {
      externalName: instance.InstanceId!,
      summary: `launched ${p.instanceType} instance ${instance.InstanceId} of ${p.imageId}${where}`,
    };
  }

  /**
   * Applies what can change in place, then takes the next step of a type change (see
   * resizeStep). Changed user data cannot be applied: with nothing else to do, update fails
   * with InvalidInput, so Synced says so and the engine backs off instead of retrying at once.
   */
  async update(mr: InstanceResource): Promise<string> {
    return this.updateExisting(mr, async (instanceId, instance) => {
      const p = mr.spec.forProvider;
      const done: string[] = [];
      done.push(...(await this.ec2.syncTags(instanceId, desiredTags(instanceApi, mr), userTagsOf(instance.Tags))));
      const changes = new InstanceChanges(this.ec2, instanceId);
      done.push(...(await changes.inPlace(p, instance)));
      done.push(...(await changes.resize(p, instance)));
      const userData = done.length === 0 ? await this.userDataDifference(mr, instanceId) : undefined;
      if (userData !== undefined) {
        const advice =
          userData === USER_DATA_CHANGED
            ? "; EC2 runs user data at first boot only, so delete and recreate the Instance to apply it, or restore the Secret's previous value"
            : '';
        throw new ClassifiedError('InvalidInput', `cannot update instance ${instanceId}: ${userData}${advice}`);
      }
      return done;
    });
  }

  /** Described first: TerminateInstances succeeds for a terminated instance too, so only EC2's description tells "already gone". */
  async delete(mr: InstanceResource): Promise<string> {
    const instanceId = externalNameOf(mr);
    if (!instanceId) return 'no instance was recorded; nothing to delete';
    if (!(await this.describe(instanceId))) return `instance ${instanceId} was already gone`;
    await this.ec2.call(`cannot terminate instance ${instanceId}`, (sdk) =>
      sdk.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] })),
    );
    return `terminating instance ${instanceId}`;
  }

  /** A terminated twin does not count: the resource is being recreated after it. */
  private async findLiveByUid(uid: string): Promise<Instance | undefined> {
    const found = await this.describeWhere('cannot look for an earlier instance', [
      { Name: `tag:${UID_TAG}`, Values: [uid] },
      { Name: 'instance-state-name', Values: LIVE_STATES },
    ]);
    return found[0];
  }

  /** The Secret's value, or undefined when the Secret or its key is missing. */
  private userData(mr: InstanceResource): Promise<string | undefined> {
    const ref = mr.spec.forProvider.userDataSecretRef!;
    return this.context.getSecretValue(mr.metadata.namespace ?? 'default', ref.name, ref.key);
  }

  private async requiredUserData(mr: InstanceResource): Promise<string> {
    const value = await this.userData(mr);
    const ref = mr.spec.forProvider.userDataSecretRef!;
    if (value === undefined) {
      throw new ClassifiedError(
        'MissingConfiguration',
        `cannot read user data: Secret ${mr.metadata.namespace ?? 'default'}/${ref.name} has no key ${ref.key}`,
      );
    }
    return value;
  }

  /** A call per instance, so only observe (never the sweep) makes it, and only with a userDataSecretRef. */
  private async userDataDifference(mr: InstanceResource, instanceId: string): Promise<string | undefined> {
    const ref = mr.spec.forProvider.userDataSecretRef;
    if (!ref) return undefined;
    const desired = await this.userData(mr);
    const attribute = await this.ec2.call(`cannot read the user data of instance ${instanceId}`, (sdk) =>
      sdk.send(new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' })),
    );
    return userDataDifference(ref, mr.metadata.namespace ?? 'default', desired, attribute.UserData?.Value);
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(
  mr: InstanceResource,
  instance: Instance,
  userData: string | undefined,
): ExternalObservation<InstanceParameters, InstanceObservation> {
  const spec = mr.spec.forProvider;
  return present(mr, {
    tags: instance.Tags,
    differences: differences(spec, instance, desiredTags(instanceApi, mr), userData),
    ...readinessOf(spec, instance),
    atProvider: toAtProvider(instance),
    lateInitialized: lateInitialize(spec, instance),
  });
}
