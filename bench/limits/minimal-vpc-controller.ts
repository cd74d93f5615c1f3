// The minimal-controller-work limit: what any controller must do for N VPCs, done directly
// from one process, 32 at a time, with none of a control plane's machinery (no watch, no
// queue, no workflow, no re-read, no lookup before creating). Per VPC, to Ready: create the
// object (the user's part), add the finalizer, CreateVpc with the tags our client sets at
// creation, record the external name, write a Ready status. To gone: delete the object (the
// user's part), DeleteVpc, remove the finalizer. Run on the same servers as ours, in a
// namespace our watcher does not watch, it says how far from the floor we are.
import { CreateVpcCommand, DeleteVpcCommand } from '@aws-sdk/client-ec2';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { EXTERNAL_NAME, FINALIZER } from '#core/annotations';
import { available, mergeConditions, reconcileSuccess } from '#core/conditions';
import { desiredTags, mapToTags } from '#providers/aws/tags';
import { toAtProvider } from '#providers/aws/ec2/vpc/convert';
import { vpcApi, type VpcObservation, type VpcParameters } from '#providers/aws/ec2/vpc/schema';
import type { ManagedResource } from '#core/managed-resource';
import { benchEc2Client } from '../bench-ec2';
import { benchVpcObject, USER_CONCURRENCY } from '../bench-vpcs';
import { mapWithConcurrency } from '../parallel';

/** The definition of the limit: 32 in parallel. */
const LIMIT_CONCURRENCY = USER_CONCURRENCY;
/** The limit's EC2 calls are counted apart from ours by this key. */
export const LIMIT_ACCESS_KEY_ID = 'bench-limit';

export interface LimitTarget {
  kubeconfigPath: string;
  ec2Endpoint: string;
  namespace: string;
}

interface LimitRun {
  seconds: number;
  /** Seconds from the start until each VPC was done (Ready, or gone), in index order. */
  doneAfterSeconds: number[];
}

/** What the apply leaves behind for the delete: each object's name and its VPC. */
interface LimitVpc {
  name: string;
  vpcId: string;
}

type VpcResource = ManagedResource<VpcParameters, VpcObservation>;

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export async function minimalVpcApply(target: LimitTarget, count: number): Promise<LimitRun & { vpcs: LimitVpc[] }> {
  const { custom, ec2, at } = connect(target);
  const started = Date.now();
  const doneAt: number[] = [];
  try {
    const vpcs = await mapWithConcurrency(
      Array.from({ length: count }, (_, i) => i),
      LIMIT_CONCURRENCY,
      async (index) => {
        const object = (await custom.createNamespacedCustomObject({ ...at, body: benchVpcObject(target.namespace, index) })) as VpcResource;
        const name = object.metadata.name;
        await custom.patchNamespacedCustomObject({ ...at, name, body: { metadata: { finalizers: [FINALIZER] } } }, mergePatch);
        const tags = mapToTags(desiredTags(vpcApi, object));
        const { Vpc: vpc } = await ec2.send(
          new CreateVpcCommand({ CidrBlock: object.spec.forProvider.cidrBlock, TagSpecifications: [{ ResourceType: 'vpc', Tags: tags }] }),
        );
        await custom.patchNamespacedCustomObject(
          { ...at, name, body: { metadata: { annotations: { [EXTERNAL_NAME]: vpc!.VpcId } } } },
          mergePatch,
        );
        const conditions = mergeConditions([], [available(), reconcileSuccess()], new Date().toISOString());
        const status = { conditions, atProvider: toAtProvider({ vpc: vpc! }), observedGeneration: object.metadata.generation };
        await custom.patchNamespacedCustomObjectStatus({ ...at, name, body: { status } }, mergePatch);
        doneAt[index] = Date.now();
        return { name, vpcId: vpc!.VpcId! };
      },
    );
    return { seconds: (Date.now() - started) / 1000, doneAfterSeconds: secondsAfter(started, doneAt), vpcs };
  } finally {
    ec2.destroy();
  }
}

export async function minimalVpcDelete(target: LimitTarget, vpcs: readonly LimitVpc[]): Promise<LimitRun> {
  const { custom, ec2, at } = connect(target);
  const started = Date.now();
  const doneAt: number[] = [];
  try {
    await mapWithConcurrency(vpcs, LIMIT_CONCURRENCY, async ({ name, vpcId }, index) => {
      await custom.deleteNamespacedCustomObject({ ...at, name });
      await ec2.send(new DeleteVpcCommand({ VpcId: vpcId }));
      // null removes the list, so the API server lets the object go.
      await custom.patchNamespacedCustomObject({ ...at, name, body: { metadata: { finalizers: null } } }, mergePatch);
      doneAt[index] = Date.now();
    });
    const seconds = (Date.now() - started) / 1000;
    const left = (await custom.listNamespacedCustomObject({ ...at })) as { items: unknown[] };
    if (left.items.length > 0) throw new Error(`the limit's delete left ${left.items.length} objects in ${target.namespace}`);
    return { seconds, doneAfterSeconds: secondsAfter(started, doneAt) };
  } finally {
    ec2.destroy();
  }
}

function connect(target: LimitTarget) {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(target.kubeconfigPath);
  return {
    custom: kubeConfig.makeApiClient(CustomObjectsApi),
    ec2: benchEc2Client(target.ec2Endpoint, LIMIT_ACCESS_KEY_ID),
    at: { group: vpcApi.group, version: vpcApi.version, namespace: target.namespace, plural: vpcApi.plural },
  };
}

const secondsAfter = (start: number, times: number[]) => times.map((at) => (at - start) / 1000);
