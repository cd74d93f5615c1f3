// What tests and tools need to know of an EC2 kind beyond its registration: how EC2 names its
// resources, how to list the ones a namespace's objects made, a sample object for a kind the
// example network lacks, and the kind's own bad-input cases. Each kind keeps these in its own
// folder (providers/aws/ec2/<kind>/fixtures.ts), found here by reading the folders, so that a
// new kind brings its own and no test or tool keeps a list of kinds.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EC2Client, Filter, Tag } from '@aws-sdk/client-ec2';
import type { ManagedKind } from '#core/managed-kind';
import { managedKinds } from '#providers/registry';
import { EC2_GROUP } from '#providers/aws/ec2/fields';
import type { BadInputCase } from './bad-input/case';

export { EC2_GROUP };

const EC2_KINDS_DIR = join(import.meta.dirname, '..', 'providers', 'aws', 'ec2');

/** A managed resource's manifest, as the examples and samples write them. */
export interface KindManifest {
  apiVersion?: string;
  kind: string;
  metadata: { name: string; [k: string]: unknown };
  spec: { forProvider: Record<string, unknown>; [k: string]: unknown };
  [k: string]: unknown;
}

/** A resource EC2 lists, with its tags; the caller keeps those of its namespace. */
interface ListedAtEc2 {
  id: string;
  tags: Tag[] | undefined;
}

export interface Ec2KindFixtures {
  /** The kind as the registry holds it. */
  kind: ManagedKind;
  /**
   * The external name a created object shows: a pattern of the ids EC2 makes up (`vpc-0a1b…`),
   * or, for a kind the user names (a key pair), the exact name an object gets.
   */
  externalName: RegExp | ((object: KindManifest) => string);
  /**
   * The resources of this kind that the filters match, leaving out what EC2 still lists once it
   * is gone (deleted NAT gateways, terminated instances). Absent for kinds EC2 gives no tags and
   * knows only by content (routes, route table associations, security group rules); tests find
   * those in what holds them.
   */
  tagged?: (ec2: EC2Client, filters: Filter[]) => Promise<ListedAtEc2[]>;
  /**
   * One object of the kind named `name`, after the objects it needs (each named `<name>-…`), for
   * the tests that take every kind through its life and find it missing from
   * examples/aws-network/. A kind the example holds needs none.
   */
  sample?: (name: string) => KindManifest[];
  /** Mistakes in this kind, for the bad-input corpus, besides those in test/bad-input/aws.cases.ts. */
  badInputCases?: readonly BadInputCase[];
}

/** The registered EC2 kinds, in registry order. */
const ec2Kinds: readonly ManagedKind[] = managedKinds.filter((k) => k.api.group === EC2_GROUP);

let loaded: Promise<readonly Ec2KindFixtures[]> | undefined;

/**
 * Every registered EC2 kind's fixtures, in registry order. Fails when a kind has none, or when a
 * folder's fixtures name a kind the registry lacks.
 */
export function ec2KindFixtures(): Promise<readonly Ec2KindFixtures[]> {
  loaded ??= loadFixtures();
  return loaded;
}

async function loadFixtures(): Promise<readonly Ec2KindFixtures[]> {
  const files = readdirSync(EC2_KINDS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(EC2_KINDS_DIR, entry.name, 'fixtures.ts'))
    .filter((file) => existsSync(file))
    .sort();
  const found = await Promise.all(
    files.map(async (file) => {
      const { fixtures } = (await import(pathToFileURL(file).href)) as { fixtures?: Ec2KindFixtures };
      if (!fixtures?.kind) throw new Error(`${file} exports no \`fixtures\` with a kind`);
      return { file, fixtures };
    }),
  );
  const problems: string[] = [];
  for (const { file, fixtures } of found) {
    if (!ec2Kinds.some((kind) => sameKind(kind, fixtures.kind)))
      problems.push(`${file} describes ${fixtures.kind.api.kind}, which the registry lacks`);
  }
  const ordered = ec2Kinds.map((kind) => {
    const own = found.filter((f) => sameKind(f.fixtures.kind, kind));
    if (own.length !== 1)
      problems.push(`${kind.api.kind} has ${own.length} fixtures.ts files (want one, in its folder under providers/aws/ec2/)`);
    return own[0]?.fixtures;
  });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return ordered as Ec2KindFixtures[];
}

const sameKind = (a: ManagedKind, b: ManagedKind) => a.api.group === b.api.group && a.api.kind === b.api.kind;

/** Whether `externalName` is what the fixtures expect of `object`. */
export function isExpectedExternalName(fixtures: Ec2KindFixtures, object: KindManifest, externalName: string): boolean {
  const expected = fixtures.externalName;
  return typeof expected === 'function' ? externalName === expected(object) : expected.test(externalName);
}

/**
 * The samples of the registered EC2 kinds that `manifests` lack, so that the manifests and these
 * together hold every kind. Fails for a missing kind without a sample.
 */
export function samplesOfMissingKinds(manifests: readonly KindManifest[], fixtures: readonly Ec2KindFixtures[]): KindManifest[] {
  const present = new Set(manifests.map((m) => m.kind));
  const missing = fixtures.filter((f) => !present.has(f.kind.api.kind));
  const unsampled = missing.filter((f) => !f.sample).map((f) => f.kind.api.kind);
  if (unsampled.length > 0)
    throw new Error(
      `${unsampled.join(', ')}: not in examples/aws-network/ and no sample in the kind's fixtures.ts; give the kind a sample`,
    );
  return missing.flatMap((f) => f.sample!(`sample-${f.kind.api.kind.toLowerCase()}`));
}
