// What every EC2 kind's client needs around the SDK, written once: calls whose errors are
// classified and say what was being done, "not found" (or another expected error code) as an
// answer rather than an error, the uid-tag lookup that makes creates idempotent, and tag sync.
// Kinds only wire their own calls.
import {
  CreateTagsCommand,
  DeleteTagsCommand,
  paginateDescribeRouteTables,
  type EC2Client,
  type EC2PaginationConfiguration,
  type Filter,
  type RouteTable,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, Connector, ExternalClient, ExternalObservation, Readiness, SweptObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { describeAlternatives } from '#core/references/declaration';
import { ec2ClientFor } from '../ec2-client';
import { classifyAwsError, describeAwsError, errorCode } from '../errors';
import { UID_TAG, claimOf, mapToTags, tagChanges, tagsToMap, type Tag } from '../tags';

export class Ec2Api {
  constructor(
    readonly sdk: EC2Client,
    /** Where calls go, for messages only. */
    private readonly where: { region: string; endpoint?: string },
  ) {}

  /** Runs one call; any error becomes a ClassifiedError whose message starts with `action`. */
  async call<T>(action: string, send: (sdk: EC2Client) => Promise<T>): Promise<T> {
    try {
      return await send(this.sdk);
    } catch (error) {
      throw this.classify(action, error);
    }
  }

  /** Like `call`, for reading one resource by id: EC2's NotFound answer becomes undefined. */
  find<T>(action: string, send: (sdk: EC2Client) => Promise<T | undefined>): Promise<T | undefined> {
    return this.callExcept(action, isNotFound, send);
  }

  /**
   * Like `call`, but EC2's error `code` is an answer, not a failure: undefined comes back. For
   * the one error a call expects, such as Gateway.NotAttached when detaching or
   * InvalidGroup.Duplicate when a retried create finds its group already made.
   */
  callUnless<T>(action: string, code: string, send: (sdk: EC2Client) => Promise<T>): Promise<T | undefined> {
    return this.callExcept(action, (error) => errorCode(error) === code, send);
  }

  /** Like `call`, for deleting: a resource that is already gone is a success (returns false). */
  async remove(action: string, send: (sdk: EC2Client) => Promise<unknown>): Promise<boolean> {
    return (await this.find(action, async (sdk) => (await send(sdk), true))) ?? false;
  }

  /** Sets and removes tags so the resource carries exactly `desired` (AWS's own aws: tags aside). */
  async syncTags(resourceId: string, desired: Record<string, string>, observed: readonly Tag[] | undefined): Promise<string[]> {
    const changes = tagChanges(desired, tagsToMap(observed));
    const done: string[] = [];
    if (Object.keys(changes.set).length > 0) {
      await this.call(`cannot tag ${resourceId}`, (sdk) =>
        sdk.send(new CreateTagsCommand({ Resources: [resourceId], Tags: mapToTags(changes.set) })),
      );
      done.push(`set tags ${Object.keys(changes.set).join(', ')}`);
    }
    if (changes.remove.length > 0) {
      await this.call(`cannot untag ${resourceId}`, (sdk) =>
        sdk.send(new DeleteTagsCommand({ Resources: [resourceId], Tags: changes.remove.map((Key) => ({ Key })) })),
      );
      done.push(`removed tags ${changes.remove.join(', ')}`);
    }
    return done;
  }

  /**
   * Every resource whose filter `name` matches one of `values`, for a sweep: 200 values a
   * request (EC2's limit per filter) and as many pages as EC2 needs. An id that matches
   * nothing is simply absent from the answer, where an id parameter would fail the whole call
   * with NotFound. The SDK's paginator follows NextToken; `pageSize` must stay within the
   * call's MaxResults range.
   */
  async describeMatching<Page, T>(
    action: string,
    name: string,
    values: readonly string[],
    paginate: (config: EC2PaginationConfiguration, input: { Filters: Filter[] }) => AsyncIterable<Page>,
    itemsOf: (page: Page) => readonly T[] | undefined,
    { pageSize = FILTER_VALUES_MAX }: { pageSize?: number } = {},
  ): Promise<T[]> {
    const found: T[] = [];
    const unique = [...new Set(values)];
    for (let at = 0; at < unique.length; at += FILTER_VALUES_MAX) {
      const Filters = [{ Name: name, Values: unique.slice(at, at + FILTER_VALUES_MAX) }];
      await this.call(action, async (sdk) => {
        for await (const page of paginate({ client: sdk, pageSize }, { Filters })) found.push(...(itemsOf(page) ?? []));
      });
    }
    return found;
  }

  private async callExcept<T>(
    action: string,
    expected: (error: unknown) => boolean,
    send: (sdk: EC2Client) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    try {
      return await send(this.sdk);
    } catch (error) {
      if (expected(error)) return undefined;
      throw this.classify(action, error);
    }
  }

  private classify(action: string, error: unknown): ClassifiedError {
    // No answer at all (refused, reset, timed out, no such host: an unknown region's endpoint
    // has no DNS name) is Unreachable, so what the endpoint holds is not reported Ready while
    // nobody can see it. An answer that is not EC2's (an HTML page: a wrong endpoint) is
    // Transient. Both name the region and the endpoint, which is what the user has to fix.
    const failureClass = classifyAwsError(error);
    if (failureClass === 'Unreachable' || isUnreadableAnswer(error)) {
      const endpoint = this.where.endpoint ?? `the AWS endpoint for ${this.where.region}`;
      return new ClassifiedError(
        failureClass === 'Unreachable' ? 'Unreachable' : 'Transient',
        `${action}: cannot reach EC2 in region ${this.where.region} at ${endpoint}: ${shortMessage(error)}`,
      );
    }
    return new ClassifiedError(failureClass, `${action}: ${describeAwsError(error)}`);
  }
}

/** What the calls after a create's first one did: what each did, and whether all of them did it. */
interface CreateFinish {
  done: string[];
  complete: boolean;
}

/**
 * Runs what a create does after the call that made the resource: attach it, set an attribute
 * the create call cannot take. The resource exists by then, and only the external name that
 * create returns records it: a create that failed here would leave the resource at EC2 with no
 * object that knows it, and deleting the object would leave it there. So a failure here does
 * not fail the create: it goes into the summary, the name is recorded, and the pass that follows
 * at once observes what is missing and runs the kind's update, which makes the same calls and
 * reports their error (Synced=False) as any update does. The kind's update must therefore redo
 * every step it runs here.
 */
export async function finishCreate(steps: () => Promise<string[]>): Promise<CreateFinish> {
  try {
    return { done: await steps(), complete: true };
  } catch (error) {
    return { done: [`left for an update: ${(error as Error)?.message ?? String(error)}`], complete: false };
  }
}

/** EC2's codes for "no such resource": InvalidVpcID.NotFound, InvalidGroup.NotFound, NatGatewayNotFound … */
export function isNotFound(error: unknown): boolean {
  return errorCode(error)?.endsWith('NotFound') ?? false;
}

/**
 * A referenced id that create cannot do without. The CRD asks for it or its reference, so it is
 * missing only when an Optional reference did not resolve.
 */
export function requiredId(value: string | undefined, field: string): string {
  if (!value) throw new ClassifiedError('InvalidInput', `${field} is required: set ${describeAlternatives({ field })}`);
  return value;
}

/** EC2 takes at most 200 values in one filter. */
const FILTER_VALUES_MAX = 200;

/**
 * The route tables whose filter `name` matches one of `values`: what the sweeps of route
 * tables, routes and associations read. DescribeRouteTables returns at most 100 a page.
 */
export function describeRouteTablesMatching(ec2: Ec2Api, action: string, name: string, values: readonly string[]): Promise<RouteTable[]> {
  return ec2.describeMatching(action, name, values, paginateDescribeRouteTables, (p) => p.RouteTables, { pageSize: 100 });
}

/** A resource a sweep can look up: one with an external name, and that name. */
interface NamedResource<M> {
  mr: M;
  id: string;
}

/** The resources with an external name: only those exist anywhere a sweep could look. */
export function withExternalNames<M extends ManagedResource<any, any>>(mrs: readonly M[]): NamedResource<M>[] {
  return mrs.flatMap((mr) => {
    const id = mr.metadata.annotations?.[EXTERNAL_NAME];
    return id ? [{ mr, id }] : [];
  });
}

/**
 * observeMany's answer: for each named resource, what its kind's observe makes of the external
 * resource found under its id, or ABSENT when the bulk read did not find it. Late
 * initialization is left out: only a resource's own pass acts on it, with a full observe.
 */
export function sweptByUid<M extends ManagedResource<any, any>, X, A>(
  resources: readonly NamedResource<M>[],
  found: ReadonlyMap<string, X>,
  observation: (mr: M, external: X) => ExternalObservation<unknown, A>,
): Map<string, SweptObservation<A>> {
  return new Map(
    resources.map(({ mr, id }): [string, SweptObservation<A>] => {
      const external = found.get(id);
      if (external === undefined) return [mr.metadata.uid, ABSENT];
      const { lateInitialized: _unused, ...swept } = observation(mr, external);
      return [mr.metadata.uid, swept];
    }),
  );
}

/** What observe answers when there is no external resource: none recorded, or EC2 has none. */
export const ABSENT = { resourceExists: false, resourceUpToDate: false } as const;

/**
 * What observe answers for a resource that exists: up to date exactly when nothing differs, and
 * claimed by another object when its uid tag names one (the engine then leaves it alone while
 * that object exists). `tags` is required so that no kind forgets them: a kind whose resources
 * carry none (a route) passes undefined, and says why.
 */
export function present<F, A>(
  mr: { metadata: { uid: string } },
  observed: {
    differences: readonly string[];
    tags: readonly Tag[] | undefined;
    readiness: Readiness;
    readinessMessage?: string;
    atProvider: A;
    lateInitialized?: Partial<F>;
  },
): ExternalObservation<F, A> {
  const { differences, tags, ...rest } = observed;
  const claimedBy = claimOf(tags, mr.metadata.uid);
  return {
    resourceExists: true,
    resourceUpToDate: differences.length === 0,
    ...rest,
    diff: differences.join('; ') || undefined,
    ...(claimedBy ? { claimedBy } : {}),
  };
}

/** The filter that finds what an earlier, interrupted create made: CreateX applied this tag atomically. */
export const uidFilter = (uid: string): Filter[] => [{ Name: `tag:${UID_TAG}`, Values: [uid] }];

function isUnreadableAnswer(error: unknown): boolean {
  return /XML parse error|Deserialization error|Unexpected token|char '<'/i.test((error as Error | undefined)?.message ?? '');
}

const shortMessage = (error: unknown) => ((error as Error)?.message ?? String(error)).split('\n')[0]!.slice(0, 200);

/** The connector of an EC2 kind: an authenticated client for the region in forProvider. */
export function ec2Connector<F extends { region: string }, A>(
  make: (api: Ec2Api, context: ConnectContext) => ExternalClient<F, A>,
): Connector<F, A> {
  return {
    async connect(mr, context) {
      const { region } = mr.spec.forProvider;
      const { client, endpoint } = await ec2ClientFor(region, mr, context);
      return make(new Ec2Api(client, { region, endpoint }), context);
    },
  };
}
