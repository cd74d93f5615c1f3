// Two tenants of one control cluster, as a platform team sets them up: a namespace each, and a
// user bound to Kubernetes' built-in `admin` ClusterRole in that namespace only. Their rights to
// Chronoplane's kinds come from the aggregated ClusterRoles (deploy/rbac/), which the
// clusterrole-aggregation controller copies into `admin`. Tests act as the tenants through
// impersonation (`kubectl --as`), never as cluster-admin; each tenant's namespace is served by
// its own worker and watcher (ControlPlane), as the worker serves one namespace or all.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { ControlPlane, condition, eventually, type VpcObject } from './harness';
import { runKubectl } from './kubectl';

/** A user acting in its own namespace, with exactly the rights the `admin` role gives there. */
export class Tenant {
  constructor(
    /** team-a or team-b: what the tests call it. */
    readonly team: string,
    /** The Kubernetes user the tests impersonate. */
    readonly user: string,
    readonly namespace: string,
    /** The worker and watcher that serve this namespace (their EC2 client reads moto as admin). */
    readonly plane: ControlPlane,
  ) {}

  /** kubectl as this user, in this namespace unless `args` names another. */
  kubectl(args: string[], stdin?: string): Promise<string> {
    return runKubectl([`--as=${this.user}`, '-n', this.namespace, ...args], stdin);
  }

  /** Sent as JSON (kubectl reads YAML 1.1); kubectl's default strict field validation refuses unknown fields. */
  async apply(manifest: object): Promise<void> {
    await this.kubectl(['apply', '-f', '-'], JSON.stringify(manifest));
  }

  /**
   * The error message kubectl prints when the API server refuses `manifest` from this user;
   * fails the test when the manifest is accepted.
   */
  async refused(manifest: object): Promise<string> {
    return refusalOf(this.apply(manifest), `${this.user} applying ${JSON.stringify(manifest)}`);
  }

  /** Refused kubectl `args` as this user: the message, or a failure when it succeeded. */
  async refusedCommand(args: string[], stdin?: string): Promise<string> {
    return refusalOf(this.kubectl(args, stdin), `${this.user} running kubectl ${args.join(' ')}`);
  }

  /** `kubectl get` as this user; undefined when absent. */
  async get(resource: string, name: string): Promise<VpcObject | undefined> {
    try {
      return JSON.parse(await this.kubectl(['get', resource, name, '-o', 'json'])) as VpcObject;
    } catch (error) {
      if (String(error).includes('NotFound')) return undefined;
      throw error;
    }
  }

  /** Waits until `probe` holds for the object as this user sees it, and returns it. */
  async until(resource: string, name: string, what: string, probe: (object: VpcObject) => boolean, timeoutMs = 90_000) {
    let last: VpcObject | undefined;
    try {
      return await eventually(
        async () => {
          last = await this.get(resource, name);
          return last && probe(last) && last;
        },
        `${resource} ${this.namespace}/${name} ${what}`,
        timeoutMs,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last conditions: ${JSON.stringify(last?.status?.conditions ?? null)}`);
    }
  }

  /** Ready=True and Synced=True. */
  ready(resource: string, name: string, timeoutMs?: number) {
    return this.until(
      resource,
      name,
      'to be Ready and Synced',
      (o) => condition(o, 'Ready')?.status === 'True' && condition(o, 'Synced')?.status === 'True',
      timeoutMs,
    );
  }

  /** Waits for condition `type` to be False with a message matching `message`, and returns that message. */
  async refusedCondition(resource: string, name: string, type: string, message: RegExp, timeoutMs?: number): Promise<string> {
    const object = await this.until(
      resource,
      name,
      `to have ${type}=False matching ${message}`,
      (o) => condition(o, type)?.status === 'False' && message.test(condition(o, type)?.message ?? ''),
      timeoutMs,
    );
    return condition(object, type)!.message!;
  }

  /** Deletes and waits until the object is gone (its finalizer released). */
  async deleteAndWait(resource: string, name: string): Promise<void> {
    await this.kubectl(['delete', resource, name, '--wait=true', '--timeout=120s', '--ignore-not-found']);
  }
}

async function refusalOf(attempt: Promise<unknown>, what: string): Promise<string> {
  const refusal = await attempt.then(
    () => undefined,
    (error: Error) => error.message,
  );
  if (refusal === undefined) throw new Error(`expected the API server to refuse ${what}, and it accepted it`);
  return refusal;
}

export interface Tenants {
  a: Tenant;
  b: Tenant;
  /** The random part of both namespaces' names. */
  suffix: string;
  stop(): Promise<void>;
}

/** What a tenant needs before its tests: `admin` has aggregated these (the last kinds it grants). */
const READY_PROBES = [
  'create vpcs.ec2.aws.chronoplane.io',
  'create providerconfigs.aws.chronoplane.io',
  'create objects.kubernetes.m.crossplane.io',
  'create providerconfigs.kubernetes.m.crossplane.io',
];

/**
 * Namespaces team-a-<suffix> and team-b-<suffix> (labelled `chronoplane.io/tenant: team-a|b`, as
 * a platform team labels them for ClusterProviderConfigs' namespaceSelectors), users alice and
 * bob bound to `admin` there, and a worker and watcher for each. Waits until aggregation has
 * given `admin` Chronoplane's kinds, so the first test is not refused for want of a role.
 */
export async function startTenants(label: string, env: Record<string, string> = {}): Promise<Tenants> {
  const suffix = randomBytes(3).toString('hex');
  const teams = [
    { team: 'team-a', user: 'alice' },
    { team: 'team-b', user: 'bob' },
  ].map((t) => ({ ...t, namespace: `${t.team}-${suffix}` }));
  for (const { team, user, namespace } of teams) {
    const manifests = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'chronoplane.io/tenant': team } } },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: `${user}-admin`, namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
      },
    ];
    // As cluster-admin: creating namespaces and granting roles is the platform team's part.
    await runKubectl(['apply', '-f', '-'], manifests.map((m) => JSON.stringify(m)).join('\n'));
    for (const probe of READY_PROBES) {
      await eventually(
        async () => (await canI(user, namespace, probe)) === 'yes',
        `${user} to be allowed to ${probe} in ${namespace} (the clusterrole-aggregation controller fills admin)`,
      );
    }
  }
  // Each plane also makes a namespace of its own (it-<label>-…), unused here: it serves the tenant's.
  const planes = await Promise.all(
    teams.map(({ team, namespace }) => ControlPlane.start(`${label}-${team}`, { ...env, CHRONOPLANE_WATCH_NAMESPACE: namespace })),
  );
  const [a, b] = teams.map(({ team, user, namespace }, i) => new Tenant(team, user, namespace, planes[i]!));
  return {
    a: a!,
    b: b!,
    suffix,
    async stop() {
      await Promise.all(planes.map((plane) => plane.stop()));
    },
  };
}

/** `kubectl auth can-i <verb> <resource> -n <namespace> --as <user>`: "yes" or "no". */
export function canI(user: string, namespace: string, verbAndResource: string): Promise<string> {
  const args = ['--kubeconfig', inject('kubeconfigPath'), 'auth', 'can-i', ...verbAndResource.split(' '), '-n', namespace, `--as=${user}`];
  // can-i prints its answer on stdout and exits 1 on "no": only another answer is an error.
  return new Promise((resolve, reject) => {
    execFile('kubectl', args, (error, stdout, stderr) => {
      const answer = stdout.trim();
      if (answer === 'yes' || answer === 'no') resolve(answer);
      else reject(new Error(`kubectl ${args.join(' ')}: ${stderr.trim() || error?.message}`));
    });
  });
}
