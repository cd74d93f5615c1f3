// What a round is judged by, as pure functions of what the API server and EC2 showed: which
// objects are not Ready, and whether EC2 holds exactly one resource per object. Kinds that EC2
// tags at creation are counted by the object's uid tag; routes, route table associations and
// security group rules, which EC2 knows by content, by what they are made of.

/** A managed object of the round as the API server showed it. */
export interface ObservedObject {
  kind: string;
  name: string;
  uid: string;
  ready: boolean;
  synced: boolean;
  deleting: boolean;
  /** With references resolved, as the control plane writes them back (routeTableId, subnetId, …). */
  forProvider: Record<string, unknown>;
  /** "Ready=False (Creating: …); Synced=True", for a report. */
  conditions: string;
}

/** An EC2 resource that carries the namespace's tags. */
export interface TaggedResource {
  /** As Chronoplane's kinds name them: VPC, Subnet, … */
  kind: string;
  id: string;
  /** The chronoplane.io/uid tag: the object that made it. */
  uid?: string;
}

export interface RouteTableContent {
  id: string;
  routes: { destination: string; local: boolean }[];
  associations: { id: string; subnetId?: string; gatewayId?: string; main: boolean }[];
}

export interface SecurityGroupRuleContent {
  id: string;
  groupId: string;
  egress: boolean;
  protocol: string;
  fromPort?: number;
  toPort?: number;
  cidrIpv4?: string;
  cidrIpv6?: string;
  referencedGroupId?: string;
  prefixListId?: string;
}

/** The namespace's part of EC2: its tagged resources, and what its route tables and security groups hold. */
export interface Ec2Content {
  tagged: TaggedResource[];
  routeTables: RouteTableContent[];
  rules: SecurityGroupRuleContent[];
}

export interface ExternalCount {
  /** `Kind/name`. */
  object: string;
  /** The external ids found for it. */
  found: string[];
  /** Why nothing could be looked for: a Ready object whose references are not written back. */
  unresolved?: true;
}

export interface OneEachResult {
  /** Objects with more than one external resource. */
  duplicates: ExternalCount[];
  /** Ready objects with none. */
  missing: ExternalCount[];
  /** Resources of the namespace that belong to no object (a retried create that lost track of the first). */
  strays: { kind: string; id: string }[];
}

export const keyOf = (o: Pick<ObservedObject, 'kind' | 'name'>): string => `${o.kind}/${o.name}`;

/** Extra resources: one fewer than found for each duplicate, and every stray. */
export const extraResources = (result: OneEachResult): number =>
  result.duplicates.reduce((sum, d) => sum + d.found.length - 1, 0) + result.strays.length;

/** The kinds EC2 knows by content; every other kind of the example is tagged with its object's uid. */
const BY_CONTENT = ['Route', 'RouteTableAssociation', 'SecurityGroupRule'] as const;

export function oneExternalEach(objects: readonly ObservedObject[], ec2: Ec2Content): OneEachResult {
  const counts: ExternalCount[] = [];
  const claimed = new Set<string>();
  const uids = new Set(objects.map((o) => o.uid));
  for (const object of objects) {
    const found = (BY_CONTENT as readonly string[]).includes(object.kind)
      ? byContent(object, ec2)
      : ec2.tagged.filter((r) => r.kind === object.kind && r.uid === object.uid).map((r) => r.id);
    // Not resolved yet: nothing to look for, and nothing it could claim. A Ready object must be
    // resolved, or this check would pass without having looked.
    if (found === undefined) {
      if (object.ready) counts.push({ object: keyOf(object), found: [], unresolved: true });
      continue;
    }
    found.forEach((id) => claimed.add(id));
    counts.push({ object: keyOf(object), found });
  }
  const ready = new Set(objects.filter((o) => o.ready).map(keyOf));
  const strays = [
    ...ec2.tagged.filter((r) => r.uid === undefined || !uids.has(r.uid)).map((r) => ({ kind: r.kind, id: r.id })),
    ...ec2.routeTables.flatMap((table) => [
      ...table.routes.filter((r) => !r.local).map((r) => ({ kind: 'Route', id: routeId(table.id, r.destination) })),
      ...table.associations.filter((a) => !a.main).map((a) => ({ kind: 'RouteTableAssociation', id: a.id })),
    ]),
    ...ec2.rules.filter((r) => !isDefaultEgress(r)).map((r) => ({ kind: 'SecurityGroupRule', id: r.id })),
  ].filter((resource) => !claimed.has(resource.id));
  return {
    duplicates: counts.filter((c) => c.found.length > 1),
    missing: counts.filter((c) => c.found.length === 0 && ready.has(c.object)),
    strays,
  };
}

/** The external ids of what EC2 holds for a route, association or rule; undefined while its references are unresolved. */
function byContent(object: ObservedObject, ec2: Ec2Content): string[] | undefined {
  const p = object.forProvider;
  const text = (field: string) => (typeof p[field] === 'string' ? (p[field] as string) : undefined);
  switch (object.kind) {
    case 'Route': {
      const table = text('routeTableId');
      const destination = text('destinationCidrBlock');
      if (!table || !destination) return undefined;
      return ec2.routeTables
        .filter((t) => t.id === table)
        .flatMap((t) => t.routes.filter((r) => r.destination === destination).map((r) => routeId(t.id, r.destination)));
    }
    case 'RouteTableAssociation': {
      const table = text('routeTableId');
      const subnet = text('subnetId');
      const gateway = text('gatewayId');
      if (!table || (!subnet && !gateway)) return undefined;
      return ec2.routeTables
        .filter((t) => t.id === table)
        .flatMap((t) => t.associations.filter((a) => !a.main && a.subnetId === subnet && a.gatewayId === gateway).map((a) => a.id));
    }
    case 'SecurityGroupRule': {
      const group = text('securityGroupId');
      const source = {
        cidrIpv4: text('cidrIpv4'),
        cidrIpv6: text('cidrIpv6'),
        referencedGroupId: text('referencedGroupId'),
        prefixListId: text('prefixListId'),
      };
      if (!group || Object.values(source).every((s) => s === undefined)) return undefined;
      const protocol = normalProtocol(String(p.ipProtocol ?? ''));
      const allPorts = protocol === '-1';
      return ec2.rules
        .filter(
          (r) =>
            r.groupId === group &&
            r.egress === (p.type === 'egress') &&
            normalProtocol(r.protocol) === protocol &&
            (allPorts || (r.fromPort === p.fromPort && r.toPort === p.toPort)) &&
            r.cidrIpv4 === source.cidrIpv4 &&
            r.cidrIpv6 === source.cidrIpv6 &&
            r.referencedGroupId === source.referencedGroupId &&
            r.prefixListId === source.prefixListId,
        )
        .map((r) => r.id);
    }
    default:
      return undefined;
  }
}

/** EC2 gives routes no id: a route is its table and its destination (the Route kind's external name too). */
const routeId = (table: string, destination: string) => `${table}_${destination}`;

/** "all", "-1" and "" all mean every protocol; names are compared in lower case. */
const normalProtocol = (protocol: string) => (['all', '-1', ''].includes(protocol.toLowerCase()) ? '-1' : protocol.toLowerCase());

/** The egress rule EC2 gives every new security group, which no object made. */
const isDefaultEgress = (r: SecurityGroupRuleContent) =>
  r.egress && normalProtocol(r.protocol) === '-1' && r.cidrIpv4 === '0.0.0.0/0' && !r.referencedGroupId && !r.prefixListId;
