// The common path of an EC2 kind's client, written once: observe by external name, the sweep's
// bulk observe, describe by id, the search for an earlier attempt's resource by uid tag, the
// envelope of an update, and a delete for which "already gone" is success. A kind describes its
// resource (Ec2KindDescription) and keeps only what is its own: create, update's calls, delete
// where it is more than one call, and conversion in convert.ts.
import type { EC2Client, EC2PaginationConfiguration, Filter } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type {
  ConnectionDetails,
  CreateAttempt,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
  SweptObservation,
} from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { ABSENT, sweptByUid, uidFilter, withExternalNames, type Ec2Api } from './ec2-api';

/**
 * What the common path needs to know of one EC2 kind. `X` is the SDK's type of the resource
 * (Subnet), `Answer` its Describe call's output (DescribeSubnetsCommandOutput). The functions
 * are declared as methods, whose parameters TypeScript checks bivariantly, so the client can
 * hold any kind's description as one whose Answer is `unknown`.
 */
export interface Ec2KindDescription<F, A, X, Answer> {
  /** The resource in messages: 'subnet', 'NAT gateway'. */
  noun: string;
  /** More than one, for the sweep's message: 'subnets', 'addresses'. */
  plural: string;
  /** One Describe call, by ids or by filters: the kind maps them to its call's parameters. */
  describe(sdk: EC2Client, query: DescribeQuery): Promise<Answer>;
  /** The resources in a Describe answer, or in one page of it. */
  resourcesIn(answer: Answer): readonly X[] | undefined;
  /** The id EC2 knows the resource by: its external name. */
  idOf(resource: X): string | undefined;
  /**
   * How a sweep reads many at once: the Describe filter that matches ids ('subnet-id'), the
   * call's paginator (none for a call that answers in one page), and a page size when the
   * call's MaxResults is below the filter's 200 values. A kind whose Describe has no id filter
   * leaves it out and writes its own observeMany.
   */
  sweep?: { filter: string; paginate?: Paginate<Answer>; pageSize?: number };
  /** What observe makes of a described resource: one comparison, in the kind's convert.ts. */
  observation(mr: ManagedResource<F, A>, resource: X): ExternalObservation<F, A>;
  /** A resource EC2 still lists for a while after it is gone (a deleted NAT gateway), which counts as absent. */
  isGone?(resource: X): boolean;
  /** What observe publishes to the connection Secret on every pass. */
  connectionDetails?(resource: X): ConnectionDetails;
}

/** What one Describe call asks for: the resources with these ids, or those the filters match. */
export type DescribeQuery = { ids: [string]; filters?: undefined } | { ids?: undefined; filters: Filter[] };

type Paginate<Answer> = (config: EC2PaginationConfiguration, input: { Filters: Filter[] }) => AsyncIterable<Answer>;

type Resource<F, A> = ManagedResource<F, A>;

/**
 * An EC2 kind's ExternalClient, its common verbs (observe, observeMany) done from its
 * description. A kind whose observe needs more than one Describe (a VPC's DNS attributes)
 * overrides it, and can still use the helpers.
 */
export abstract class Ec2KindClient<F, A, X> implements ExternalClient<F, A> {
  constructor(
    protected readonly ec2: Ec2Api,
    private readonly kind: Ec2KindDescription<F, A, X, unknown>,
  ) {}

  abstract create(mr: Resource<F, A>, attempt?: CreateAttempt): Promise<ExternalCreation<F, A>>;
  abstract update(mr: Resource<F, A>): Promise<string>;
  abstract delete(mr: Resource<F, A>): Promise<string | ExternalDeletion>;

  async observe(mr: Resource<F, A>): Promise<ExternalObservation<F, A>> {
    const id = externalNameOf(mr);
    if (!id) return ABSENT;
    const resource = await this.describe(id);
    if (!resource) return ABSENT;
    const details = this.kind.connectionDetails?.(resource);
    return { ...this.kind.observation(mr, resource), ...(details ? { connectionDetails: details } : {}) };
  }

  /**
   * One Describe per 200 resources (or per page size), through the id filter: an id that
   * matches nothing is simply absent from the answer. The kind says which forProvider fields
   * this cannot read (`unsweptFields` in its index.ts).
   */
  async observeMany(mrs: readonly Resource<F, A>[]): Promise<Map<string, SweptObservation<A>>> {
    const { sweep, plural } = this.kind;
    if (!sweep) throw new Error(`${plural}: the kind's description has no sweep, so its client must write observeMany`);
    const { filter, pageSize } = sweep;
    const paginate: Paginate<unknown> = sweep.paginate ?? ((config, input) => this.describeInOnePage(config.client, input.Filters));
    const named = withExternalNames(mrs);
    const found = await this.ec2.describeMatching(
      `cannot describe ${plural}`,
      filter,
      named.map((n) => n.id),
      paginate,
      (answer) => this.kind.resourcesIn(answer),
      pageSize ? { pageSize } : {},
    );
    const live = found.filter((resource) => !this.kind.isGone?.(resource));
    return sweptByUid(named, new Map(live.map((resource) => [this.kind.idOf(resource)!, resource])), (mr, resource) =>
      this.kind.observation(mr, resource),
    );
  }

  /** The resource with this id, or undefined when EC2 has none (NotFound) or lists it gone. */
  protected async describe(id: string): Promise<X | undefined> {
    const resource = await this.ec2.find(
      `cannot describe ${this.kind.noun} ${id}`,
      async (sdk) => this.kind.resourcesIn(await this.kind.describe(sdk, { ids: [id] }))?.[0],
    );
    return resource && !this.kind.isGone?.(resource) ? resource : undefined;
  }

  /** What the filters match; `action` says what for, in the error. */
  protected async describeWhere(action: string, filters: Filter[]): Promise<X[]> {
    const answer = await this.ec2.call(action, (sdk) => this.kind.describe(sdk, { filters }));
    return [...(this.kind.resourcesIn(answer) ?? [])];
  }

  /** Every resource an earlier create for this object made: the create call applied the uid tag atomically. */
  protected taggedWith(uid: string): Promise<X[]> {
    return this.describeWhere(`cannot look for an earlier ${this.kind.noun}`, uidFilter(uid));
  }

  /** The resource an earlier, interrupted create made, if any: what keeps a retried create from making a twin. */
  protected async findByUid(uid: string): Promise<X | undefined> {
    return (await this.taggedWith(uid))[0];
  }

  /**
   * An update's envelope: the recorded resource described, `apply` making what differs match
   * (it returns what it did, or throws), and the one-line summary.
   */
  protected async updateExisting(mr: Resource<F, A>, apply: (id: string, resource: X) => Promise<string[]>): Promise<string> {
    const { noun } = this.kind;
    const id = externalNameOf(mr)!;
    const resource = await this.describe(id);
    if (!resource) return `${noun} ${id} is gone; nothing to update`;
    const done = await apply(id, resource);
    return `updated ${noun} ${id}: ${done.join('; ') || 'already up to date'}`;
  }

  /**
   * Delete for a kind whose Delete call answers once the resource is gone (deletesSynchronously
   * in its index.ts): the next pass then needs no observe to know it.
   */
  protected async deleteAtOnce(mr: Resource<F, A>, call: (sdk: EC2Client, id: string) => Promise<unknown>): Promise<ExternalDeletion> {
    const id = externalNameOf(mr);
    if (!id) return { summary: `no ${this.kind.noun} was recorded; nothing to delete`, gone: true };
    return { summary: await this.remove(id, call), gone: true };
  }

  /** Runs the Delete call; a resource that is already gone (NotFound) is a success. Returns the summary. */
  protected async remove(id: string, call: (sdk: EC2Client, id: string) => Promise<unknown>): Promise<string> {
    const { noun } = this.kind;
    const deleted = await this.ec2.remove(`cannot delete ${noun} ${id}`, (sdk) => call(sdk, id));
    return deleted ? `deleted ${noun} ${id}` : `${noun} ${id} was already gone`;
  }

  /** For a Describe call without pages: one call answers for everything its filter matches. */
  private async *describeInOnePage(sdk: EC2Client, filters: Filter[]): AsyncGenerator<unknown> {
    yield await this.kind.describe(sdk, { filters });
  }
}

/** The external name the engine recorded, which for these kinds is the resource's EC2 id. */
export function externalNameOf(mr: Pick<ManagedResource<unknown, unknown>, 'metadata'>): string | undefined {
  return mr.metadata.annotations?.[EXTERNAL_NAME];
}
