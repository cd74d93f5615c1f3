// Which managed kind and object a command line names: `vpc/main`, `VPC/main`, `vpcs/main`,
// or `vpc.ec2.aws.chronoplane.io/main` when two groups serve the same kind name (Object).
import type { KindApi, ManagedKind } from '#core/managed-kind';

interface NamedObject {
  kind: ManagedKind;
  name: string;
}

export class UsageError extends Error {}

/** The kinds a name such as `vpc` or `vpc.ec2.aws.chronoplane.io` may mean, as kubectl reads it. */
function kindsNamed(text: string, kinds: readonly ManagedKind[]): ManagedKind[] {
  const lower = text.toLowerCase();
  const names = (api: KindApi) => [api.kind.toLowerCase(), api.plural, api.singular, ...api.shortNames];
  return kinds.filter(({ api }) => names(api).some((n) => lower === n || lower === `${n}.${api.group}`));
}

export function parseObjectName(text: string, kinds: readonly ManagedKind[]): NamedObject {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) throw new UsageError(`expected <kind>/<name>, such as vpc/main; got "${text}"`);
  const kindText = text.slice(0, slash);
  const name = text.slice(slash + 1);
  const matches = kindsNamed(kindText, kinds);
  if (matches.length === 0) throw new UsageError(`no managed kind is called "${kindText}"`);
  if (matches.length > 1) {
    const choices = matches.map(({ api }) => `${api.kind.toLowerCase()}.${api.group}/${name}`).join(' or ');
    throw new UsageError(`"${kindText}" names ${matches.length} kinds: write ${choices}`);
  }
  return { kind: matches[0]!, name };
}
