// The calls an instance's update makes: the changes EC2 applies in place (security groups,
// metadata options, detailed monitoring), and one step at a time of a type change, which EC2
// allows only on a stopped instance (see resizeStep in convert.ts). Each returns what it did,
// for update's summary, or nothing when there was nothing to do.
import {
  CreateTagsCommand,
  DeleteTagsCommand,
  ModifyInstanceAttributeCommand,
  ModifyInstanceMetadataOptionsCommand,
  MonitorInstancesCommand,
  StartInstancesCommand,
  StopInstancesCommand,
  UnmonitorInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';
import type { Ec2Api } from '../ec2-api';
import { RESIZE_TAG, isMonitored, resizeStep } from './convert';
import type { InstanceParameters } from './schema';

export class InstanceChanges {
  constructor(
    private readonly ec2: Ec2Api,
    private readonly instanceId: string,
  ) {}

  async inPlace(p: InstanceParameters, instance: Instance): Promise<string[]> {
    return [
      ...(await this.securityGroups(p, instance)),
      ...(await this.metadataOptions(p, instance)),
      ...(await this.monitoring(p, instance)),
    ];
  }

  /** One step of a type change per call; the next pass observes the new state and takes the next. */
  async resize(p: InstanceParameters, instance: Instance): Promise<string[]> {
    const id = this.instanceId;
    const step = resizeStep(p, instance);
    switch (step.step) {
      case 'none':
        return [];
      case 'wait':
        return [`waiting for instance ${id} to leave state ${step.state} to go on changing its type`];
      case 'stop':
        // Marked before it stops: whoever takes the next step knows Chronoplane stopped it.
        await this.ec2.call(`cannot mark instance ${id} as stopped for a type change`, (sdk) =>
          sdk.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: RESIZE_TAG, Value: step.to }] })),
        );
        await this.ec2.call(`cannot stop instance ${id} to change its type`, (sdk) =>
          sdk.send(new StopInstancesCommand({ InstanceIds: [id] })),
        );
        return [`stopping to change instance type from ${step.from} to ${step.to}`];
      case 'modify':
        await this.ec2.call(`cannot change the type of instance ${id} to ${step.to}`, (sdk) =>
          sdk.send(new ModifyInstanceAttributeCommand({ InstanceId: id, InstanceType: { Value: step.to } })),
        );
        if (!step.start) return [`changed instance type from ${step.from} to ${step.to}; left it stopped, as it was found`];
        await this.startAgain();
        return [`changed instance type from ${step.from} to ${step.to} and started it again`];
      case 'start':
        await this.startAgain();
        return [`started instance ${id} again after changing its type`];
      case 'untag':
        await this.unmark();
        return [`finished changing the type of instance ${id}`];
    }
  }

  private async startAgain(): Promise<void> {
    const id = this.instanceId;
    await this.ec2.call(`cannot start instance ${id} after changing its type`, (sdk) =>
      sdk.send(new StartInstancesCommand({ InstanceIds: [id] })),
    );
    await this.unmark();
  }

  private async unmark(): Promise<void> {
    const id = this.instanceId;
    await this.ec2.call(`cannot unmark instance ${id} after its type change`, (sdk) =>
      sdk.send(new DeleteTagsCommand({ Resources: [id], Tags: [{ Key: RESIZE_TAG }] })),
    );
  }

  private async securityGroups(p: InstanceParameters, instance: Instance): Promise<string[]> {
    if (p.securityGroupIds === undefined) return [];
    const have = (instance.SecurityGroups ?? []).map((g) => g.GroupId).sort();
    const want = [...new Set(p.securityGroupIds)].sort();
    if (have.join(',') === want.join(',')) return [];
    await this.ec2.call(`cannot set the security groups of instance ${this.instanceId}`, (sdk) =>
      sdk.send(new ModifyInstanceAttributeCommand({ InstanceId: this.instanceId, Groups: want })),
    );
    return [`securityGroupIds=[${want.join(', ')}]`];
  }

  /** EC2 takes every option in one call, so the spec's are sent over what the instance has. */
  private async metadataOptions(p: InstanceParameters, instance: Instance): Promise<string[]> {
    const want = p.metadataOptions;
    if (!want) return [];
    const have = instance.MetadataOptions ?? {};
    const merged = {
      HttpTokens: want.httpTokens ?? have.HttpTokens,
      HttpEndpoint: want.httpEndpoint ?? have.HttpEndpoint,
      HttpPutResponseHopLimit: want.httpPutResponseHopLimit ?? have.HttpPutResponseHopLimit,
    };
    const same = (Object.keys(merged) as (keyof typeof merged)[]).every((k) => merged[k] === have[k]);
    if (same) return [];
    await this.ec2.call(`cannot set the metadata options of instance ${this.instanceId}`, (sdk) =>
      sdk.send(new ModifyInstanceMetadataOptionsCommand({ InstanceId: this.instanceId, ...merged })),
    );
    return [`metadataOptions=${JSON.stringify(want)}`];
  }

  /** Monitor/UnmonitorInstances; moto does not implement them, so only the diff is tested. */
  private async monitoring(p: InstanceParameters, instance: Instance): Promise<string[]> {
    if (p.monitoring === undefined || p.monitoring === isMonitored(instance)) return [];
    const InstanceIds = [this.instanceId];
    await this.ec2.call(`cannot ${p.monitoring ? 'enable' : 'disable'} detailed monitoring of instance ${this.instanceId}`, (sdk) =>
      sdk.send(p.monitoring ? new MonitorInstancesCommand({ InstanceIds }) : new UnmonitorInstancesCommand({ InstanceIds })),
    );
    return [`monitoring=${p.monitoring}`];
  }
}
