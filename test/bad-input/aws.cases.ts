// The AWS part of the bad-input corpus: mistakes in the EC2 kinds and in the AWS
// ProviderConfig and ClusterProviderConfig, each with what the user should get. What the API
// server can judge from the object alone is refused at admission, naming the field; what only
// EC2, a reference or a config can tell is a condition that explains it. Every object is named
// after its case (the corpus namespace is filled in by the runner; CORPUS_NAMESPACE stands for
// it where a case must name it). EC2 is moto here: cases whose outcome would depend on a check
// moto does not make (an AMI, an instance type, a prefix list that does not exist) are left out.
import { CORPUS_NAMESPACE, type BadInputCase, type Manifest, type Outcome } from './case';

const EC2 = 'ec2.aws.chronoplane.io/v1alpha1';
const AWS = 'aws.chronoplane.io/v1alpha1';
const REGION = 'us-east-1';

type Fields = Record<string, unknown>;
interface Extra {
  metadata?: Fields;
  spec?: Fields;
}

/** An EC2 kind's manifest; a field given as undefined is left out (a missing region). */
function ec2(kind: string, name: string, forProvider: Fields, extra: Extra = {}): Manifest {
  return {
    apiVersion: EC2,
    kind,
    metadata: { name, ...extra.metadata },
    spec: { forProvider: { region: REGION, ...forProvider }, ...extra.spec },
  };
}

const vpc = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2('VPC', name, { cidrBlock: '10.0.0.0/16', ...forProvider }, extra);
const subnet = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2('Subnet', name, { cidrBlock: '10.0.1.0/24', availabilityZone: 'us-east-1a', ...forProvider }, extra);
const internetGateway = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('InternetGateway', name, forProvider, extra);
const routeTable = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('RouteTable', name, forProvider, extra);
const route = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2('Route', name, { destinationCidrBlock: '0.0.0.0/0', ...forProvider }, extra);
const association = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('RouteTableAssociation', name, forProvider, extra);
const securityGroup = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2('SecurityGroup', name, { description: 'made by the bad-input corpus', ...forProvider }, extra);
const rule = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2(
    'SecurityGroupRule',
    name,
    { type: 'ingress', ipProtocol: 'tcp', fromPort: 443, toPort: 443, cidrIpv4: '10.0.0.0/16', ...forProvider },
    extra,
  );
const address = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('Address', name, forProvider, extra);
const natGateway = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('NATGateway', name, forProvider, extra);
const keyPair = (name: string, forProvider: Fields = {}, extra?: Extra) => ec2('KeyPair', name, forProvider, extra);
const instance = (name: string, forProvider: Fields = {}, extra?: Extra) =>
  ec2('Instance', name, { imageId: 'ami-1e749f67', instanceType: 't3.micro', ...forProvider }, extra);

const namespace = (name: string): Manifest => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const secret = (name: string, stringData: Record<string, string>, inNamespace?: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, ...(inNamespace ? { namespace: inNamespace } : {}) },
  stringData,
});
const configMap = (name: string, data: Record<string, string>): Manifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

/** An AWS shared-credentials file with one profile (moto takes any keys). */
const credentialsFile = (profile = 'default') => `[${profile}]\naws_access_key_id = bad-input\naws_secret_access_key = testing\n`;

/** A namespaced ProviderConfig reading key `credentials` of Secret `<name>-aws` in the corpus namespace. */
function providerConfig(name: string, spec: Fields = {}, inNamespace?: string): Manifest {
  return {
    apiVersion: AWS,
    kind: 'ProviderConfig',
    metadata: { name, ...(inNamespace ? { namespace: inNamespace } : {}) },
    spec: {
      credentials: { source: 'Secret', secretRef: { namespace: inNamespace ?? CORPUS_NAMESPACE, name: `${name}-aws`, key: 'credentials' } },
      ...spec,
    },
  };
}

function clusterProviderConfig(name: string, spec: Fields = {}): Manifest {
  return {
    apiVersion: AWS,
    kind: 'ClusterProviderConfig',
    metadata: { name },
    spec: {
      credentials: { source: 'Secret', secretRef: { namespace: CORPUS_NAMESPACE, name: `${name}-aws`, key: 'credentials' } },
      ...spec,
    },
  };
}

const usingProviderConfig = (name: string) => ({ spec: { providerConfigRef: { kind: 'ProviderConfig', name } } });
const usingClusterProviderConfig = (name: string) => ({ spec: { providerConfigRef: { kind: 'ClusterProviderConfig', name } } });
const labelled = (caseName: string) => ({ metadata: { labels: { 'bad-input-case': caseName } } });

// Outcomes, and the API server's and Chronoplane's words for the common mistakes.
const refused = (message: RegExp): Outcome => ({ refused: { message } });
const synced = (message: RegExp, reason = 'ReconcileError'): Outcome => ({
  condition: { type: 'Synced', status: 'False', reason, message },
});
const ready = (status: 'True' | 'False', message: RegExp, reason?: string): Outcome => ({
  condition: { type: 'Ready', status, ...(reason ? { reason } : {}), message },
});
/** A reference that cannot resolve yet: the object waits, saying for what (ReferencesResolved says it too). */
const waitingFor = (message: RegExp): Outcome => ready('False', message, 'Creating');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const field = (path: string, rest: string) => new RegExp(`${escape(path)}: ${rest}`);
const required = (path: string) => field(path, 'Required value');
const unsupported = (path: string, value: string) => field(path, `Unsupported value: "${escape(value)}"`);
const invalid = (path: string, message: string) => field(path, `Invalid value: .*${escape(message)}`);
const immutable = (path: string, name = path.split('.').pop()!) => invalid(path, `${name} is immutable`);
const unknownField = (path: string) => new RegExp(`unknown field "${escape(path)}"`);
const cidr = (path: string, family: 4 | 6) =>
  invalid(path, `${path.split('.').pop()} must be an IPv${family} network in canonical CIDR notation (host bits zero)`);
const CONTROL_CHARACTERS = invalid('spec.forProvider.tags', 'tags: keys and values may not contain control characters');
const RESERVED_TAG = invalid('spec.forProvider.tags', 'tag keys starting with crossplane- or aws:, and chronoplane.io/uid, are reserved');
/** A second object for what another one manages: the message names the first, and says what to do. */
const managedBy = (kind: string, name: string, advice: string) =>
  new RegExp(`managed by ${kind} ${CORPUS_NAMESPACE}/${escape(name)} \\(uid [^)]+\\): it is not adopted.*${escape(advice)}`);
const notFoundRef = (kind: string, name: string) => new RegExp(`waiting for ${kind} ${CORPUS_NAMESPACE}/${escape(name)}: not found`);

/** `prefix` padded with `x` to exactly `length` characters: names and values at a limit. */
const sized = (prefix: string, length: number) => prefix + 'x'.repeat(length - prefix.length);
/** `count` tags, each distinct. */
const manyTags = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`tag-${i}`, `value-${i}`]));
/** An OpenSSH ed25519 public key with a well-formed (if meaningless) 32-byte key. */
const SSH_ED25519 = (() => {
  const part = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(Buffer.alloc(32, 7))]).toString('base64')} corpus@example`;
})();
const MISSING_VPC = 'vpc-0000000000000000f';
const MISSING_SUBNET = 'subnet-0000000000000000a';
const MISSING_GROUP = 'sg-0000000000000000a';
const MISSING_GATEWAY = 'igw-0000000000000000a';
const MISSING_TABLE = 'rtb-0000000000000000a';

const vpcCases: BadInputCase[] = [
  // CIDRs the API server can judge by themselves.
  {
    name: 'vpc-cidr-host-bits',
    mistake: 'a VPC CIDR with host bits set',
    apply: [vpc('vpc-cidr-host-bits', { cidrBlock: '10.0.0.1/16' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-three-octets',
    mistake: 'a VPC CIDR with an octet missing',
    apply: [vpc('vpc-cidr-three-octets', { cidrBlock: '10.0.0/16' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-octet-256',
    mistake: 'a VPC CIDR with an octet above 255',
    apply: [vpc('vpc-cidr-octet-256', { cidrBlock: '10.256.0.0/16' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-no-prefix',
    mistake: 'a VPC CIDR without its prefix length',
    apply: [vpc('vpc-cidr-no-prefix', { cidrBlock: '10.0.0.0' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-prefix-33',
    mistake: 'a VPC CIDR with a prefix length above 32',
    apply: [vpc('vpc-cidr-prefix-33', { cidrBlock: '10.0.0.0/33' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-ipv6',
    mistake: 'an IPv6 range as the VPC’s IPv4 CIDR',
    apply: [vpc('vpc-cidr-ipv6', { cidrBlock: '2001:db8::/56' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-words',
    mistake: 'a VPC CIDR that is not an address at all',
    apply: [vpc('vpc-cidr-words', { cidrBlock: 'ten-dot-zero/16' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'vpc-cidr-missing',
    mistake: 'a VPC without a CIDR',
    apply: [vpc('vpc-cidr-missing', { cidrBlock: undefined })],
    expect: refused(required('spec.forProvider.cidrBlock')),
  },
  // CIDRs only EC2 refuses: it says so, in its words.
  {
    name: 'vpc-cidr-prefix-8',
    mistake: 'a VPC larger than EC2 allows (/8)',
    apply: [vpc('vpc-cidr-prefix-8', { cidrBlock: '10.0.0.0/8' })],
    expect: synced(/cannot create VPC: InvalidVpc\.Range: The CIDR '10\.0\.0\.0\/8' is invalid/),
  },
  {
    name: 'vpc-cidr-prefix-29',
    mistake: 'a VPC smaller than EC2 allows (/29)',
    apply: [vpc('vpc-cidr-prefix-29', { cidrBlock: '10.0.0.0/29' })],
    expect: synced(/cannot create VPC: InvalidVpc\.Range: The CIDR '10\.0\.0\.0\/29' is invalid/),
  },
  // Regions.
  {
    name: 'vpc-region-missing',
    mistake: 'a VPC without a region',
    apply: [vpc('vpc-region-missing', { region: undefined })],
    expect: refused(required('spec.forProvider.region')),
  },
  {
    name: 'vpc-region-uppercase',
    mistake: 'a region in capitals',
    apply: [vpc('vpc-region-uppercase', { region: 'US-EAST-1' })],
    expect: refused(invalid('spec.forProvider.region', 'spec.forProvider.region in body should match')),
  },
  {
    name: 'vpc-region-zone',
    mistake: 'an Availability Zone where the region goes',
    apply: [vpc('vpc-region-zone', { region: 'us-east-1a' })],
    expect: refused(invalid('spec.forProvider.region', 'spec.forProvider.region in body should match')),
  },
  {
    name: 'vpc-region-unknown',
    mistake: 'a well-formed region that does not exist',
    apply: [vpc('vpc-region-unknown', { region: 'xx-nowhere-9' })],
    expect: synced(/cannot reach EC2 in region xx-nowhere-9 at /, 'ReconcileError'),
  },
  // Enums and types.
  {
    name: 'vpc-tenancy-shared',
    mistake: 'an instance tenancy EC2 does not have',
    apply: [vpc('vpc-tenancy-shared', { instanceTenancy: 'shared' })],
    expect: refused(unsupported('spec.forProvider.instanceTenancy', 'shared')),
  },
  {
    name: 'vpc-dns-yes',
    mistake: 'a boolean written as a string',
    apply: [vpc('vpc-dns-yes', { enableDnsSupport: 'yes' })],
    expect: refused(invalid('spec.forProvider.enableDnsSupport', 'must be of type boolean')),
  },
  {
    name: 'vpc-field-typo',
    mistake: 'a misspelt field (cidr for cidrBlock)',
    apply: [vpc('vpc-field-typo', { cidr: '10.0.0.0/16' })],
    expect: refused(unknownField('spec.forProvider.cidr')),
  },
  {
    name: 'vpc-for-provider-missing',
    mistake: 'a VPC without spec.forProvider',
    apply: [{ ...vpc('vpc-for-provider-missing'), spec: {} }],
    expect: refused(required('spec.forProvider')),
  },
  {
    name: 'vpc-kind-lowercase',
    mistake: 'the kind spelt Vpc',
    apply: [{ ...vpc('vpc-kind-lowercase'), kind: 'Vpc' }],
    expect: refused(/no matches for kind "Vpc" in version "ec2\.aws\.chronoplane\.io\/v1alpha1"/),
  },
  {
    name: 'vpc-api-version-crossplane',
    mistake: 'the apiVersion of Crossplane’s AWS provider',
    apply: [{ ...vpc('vpc-api-version-crossplane'), apiVersion: 'ec2.aws.crossplane.io/v1beta1' }],
    expect: refused(/no matches for kind "VPC" in version "ec2\.aws\.crossplane\.io\/v1beta1"/),
  },
  // Tags.
  {
    name: 'vpc-tag-aws-prefix',
    mistake: 'a tag key under aws:, which belongs to AWS',
    apply: [vpc('vpc-tag-aws-prefix', { tags: { 'aws:cloudformation:stack-name': 'mine' } })],
    expect: refused(RESERVED_TAG),
  },
  {
    name: 'vpc-tag-crossplane-name',
    mistake: 'a tag that would override the crossplane-name Chronoplane sets (hostile)',
    apply: [vpc('vpc-tag-crossplane-name', { tags: { 'crossplane-name': 'someone-else' } })],
    expect: refused(RESERVED_TAG),
  },
  {
    name: 'vpc-tag-uid-forged',
    mistake: 'a forged chronoplane.io/uid tag, to claim another object’s resources (hostile)',
    apply: [vpc('vpc-tag-uid-forged', { tags: { 'chronoplane.io/uid': '00000000-0000-0000-0000-000000000000' } })],
    expect: refused(RESERVED_TAG),
  },
  {
    name: 'vpc-tags-51',
    mistake: '51 tags, over EC2’s 50',
    apply: [vpc('vpc-tags-51', { tags: manyTags(51) })],
    expect: refused(field('spec.forProvider.tags', 'Too many: 51: must have at most 50 items')),
  },
  {
    name: 'vpc-tags-50',
    mistake: '50 tags: EC2’s limit, which the tags Chronoplane adds push over it',
    apply: [vpc('vpc-tags-50', { tags: manyTags(50) })],
    // Chronoplane adds 7 tags of its own (crossplane-* and chronoplane.io/uid): EC2 would refuse
    // every create with TagLimitExceeded, which does not say whose tags are too many.
    expect: refused(invalid('spec.forProvider.tags', 'at most 43 tags: EC2 allows 50 a resource, and Chronoplane sets 7 of its own')),
  },
  {
    name: 'vpc-tags-43',
    mistake: '43 tags, the most a spec may hold: with Chronoplane’s 7, exactly EC2’s 50',
    apply: [vpc('vpc-tags-43', { tags: manyTags(43) })],
    expect: ready('True', /^$/),
  },
  {
    name: 'vpc-tag-key-129',
    mistake: 'a tag key over 128 characters',
    apply: [vpc('vpc-tag-key-129', { tags: { [sized('k', 129)]: 'v' } })],
    expect: refused(invalid('spec.forProvider.tags', 'keys must be at most 128 characters')),
  },
  {
    name: 'vpc-tag-value-257',
    mistake: 'a tag value over 256 characters',
    apply: [vpc('vpc-tag-value-257', { tags: { note: sized('v', 257) } })],
    expect: refused(field('spec.forProvider.tags.note', 'Too long')),
  },
  {
    name: 'vpc-tag-nul',
    mistake: 'a NUL byte in a tag value',
    apply: [vpc('vpc-tag-nul', { tags: { team: 'net\u0000work' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  {
    name: 'vpc-tag-newline-key',
    mistake: 'a newline in a tag key',
    apply: [vpc('vpc-tag-newline-key', { tags: { 'team\nowner': 'net' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  {
    name: 'vpc-tag-escape',
    mistake: 'a terminal escape sequence in a tag value (hostile)',
    apply: [vpc('vpc-tag-escape', { tags: { team: '\u001b[31mred' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  {
    name: 'vpc-tag-c1-control',
    mistake: 'a C1 control character (NEL) in a tag value',
    apply: [vpc('vpc-tag-c1-control', { tags: { team: 'net\u0085work' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  // Names and sizes.
  {
    name: 'vpc-name-254',
    mistake: 'a name over 253 characters',
    apply: [vpc(sized('vpc-name-254-', 254))],
    expect: refused(invalid('metadata.name', 'must be no more than 253 characters')),
  },
  {
    name: 'vpc-name-253',
    mistake: 'a name of exactly 253 characters, the limit',
    apply: [vpc(sized('vpc-name-253-', 253))],
    expect: ready('True', /^$/),
  },
  {
    name: 'vpc-name-capitals',
    mistake: 'capitals in a name',
    apply: [vpc('vpc-name-capitals-Prod')],
    expect: refused(invalid('metadata.name', 'a lowercase RFC 1123 subdomain')),
  },
  {
    name: 'vpc-name-unicode',
    mistake: 'a non-ASCII letter in a name',
    apply: [vpc('vpc-name-unicode-réseau')],
    expect: refused(invalid('metadata.name', 'a lowercase RFC 1123 subdomain')),
  },
  {
    name: 'vpc-label-value-64',
    mistake: 'a label value over 63 characters',
    apply: [vpc('vpc-label-value-64', {}, { metadata: { labels: { tier: sized('t', 64) } } })],
    expect: refused(invalid('metadata.labels', 'must be no more than 63 characters')),
  },
  {
    name: 'vpc-annotation-1mib',
    mistake: 'a 1 MiB annotation',
    apply: [vpc('vpc-annotation-1mib', {}, { metadata: { annotations: { note: sized('n', 1 << 20) } } })],
    expect: refused(field('metadata.annotations', 'Too long')),
  },
  {
    name: 'vpc-object-2mib',
    mistake: 'a 2 MiB object',
    apply: [vpc('vpc-object-2mib', {}, { metadata: { annotations: { note: sized('n', 2 << 20) } } })],
    expect: refused(/[Rr]equest entity too large/),
  },
  // Edits of what cannot change.
  {
    name: 'vpc-edit-cidr',
    mistake: 'a changed cidrBlock on a VPC that exists',
    setup: [vpc('vpc-edit-cidr', { cidrBlock: '10.10.0.0/16' })],
    readyFirst: [{ kind: 'vpc', name: 'vpc-edit-cidr' }],
    apply: [vpc('vpc-edit-cidr', { cidrBlock: '10.11.0.0/16' })],
    expect: refused(immutable('spec.forProvider.cidrBlock')),
  },
  {
    name: 'vpc-edit-region',
    mistake: 'a changed region on a VPC that exists',
    setup: [vpc('vpc-edit-region', { cidrBlock: '10.12.0.0/16' })],
    readyFirst: [{ kind: 'vpc', name: 'vpc-edit-region' }],
    apply: [vpc('vpc-edit-region', { cidrBlock: '10.12.0.0/16', region: 'us-west-2' })],
    expect: refused(immutable('spec.forProvider.region')),
  },
  {
    name: 'vpc-edit-tenancy',
    mistake: 'a changed instanceTenancy on a VPC',
    setup: [vpc('vpc-edit-tenancy', { instanceTenancy: 'default' })],
    apply: [vpc('vpc-edit-tenancy', { instanceTenancy: 'dedicated' })],
    expect: refused(immutable('spec.forProvider.instanceTenancy')),
  },
  // Generic references.
  {
    name: 'vpc-ref-other-namespace',
    mistake: 'a reference that copies a Secret of another namespace into a tag (hostile)',
    apply: [
      vpc(
        'vpc-ref-other-namespace',
        {},
        {
          spec: {
            references: [
              {
                fromObject: {
                  apiVersion: 'v1',
                  kind: 'Secret',
                  name: 'aws-credentials',
                  namespace: 'crossplane-system',
                  fieldPath: 'data.credentials',
                },
                toFieldPath: 'spec.forProvider.tags.leak',
              },
            ],
          },
        },
      ),
    ],
    expect: refused(
      new RegExp(
        `a reference may only name objects in the object's own namespace \\(${CORPUS_NAMESPACE}\\); crossplane-system is another tenant's`,
      ),
    ),
  },
  {
    name: 'vpc-ref-path-double-dot',
    mistake: 'a malformed toFieldPath',
    apply: [
      vpc(
        'vpc-ref-path-double-dot',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-path-double-dot', fieldPath: 'data.x' },
                toFieldPath: 'spec..forProvider',
              },
            ],
          },
        },
      ),
    ],
    expect: refused(/must be a field path such as spec\.forProvider\.cidrBlock/),
  },
  {
    name: 'vpc-ref-into-status',
    mistake: 'a reference that would write the object’s status',
    apply: [
      vpc(
        'vpc-ref-into-status',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-into-status', fieldPath: 'data.x' },
                toFieldPath: 'status.atProvider.vpcId',
              },
            ],
          },
        },
      ),
    ],
    expect: refused(/its toFieldPath starts with spec\./),
  },
  {
    name: 'vpc-ref-two-forms',
    mistake: 'one reference that is both fromObject and dependsOn',
    apply: [
      vpc(
        'vpc-ref-two-forms',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-two-forms', fieldPath: 'data.x' },
                dependsOn: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-two-forms' },
                toFieldPath: 'spec.forProvider.tags.x',
              },
            ],
          },
        },
      ),
    ],
    expect: refused(/each reference has exactly one of fromObject, patchesFrom and dependsOn/),
  },
  {
    name: 'vpc-ref-no-destination',
    mistake: 'a fromObject reference that says where to read but not where to write',
    apply: [
      vpc(
        'vpc-ref-no-destination',
        {},
        {
          spec: {
            references: [{ fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-no-destination', fieldPath: 'data.x' } }],
          },
        },
      ),
    ],
    expect: refused(/fromObject needs toFieldPath/),
  },
  {
    name: 'vpc-ref-missing-object',
    mistake: 'a reference to a ConfigMap that does not exist',
    apply: [
      vpc(
        'vpc-ref-missing-object',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-missing-object-settings', fieldPath: 'data.team' },
                toFieldPath: 'spec.forProvider.tags.team',
              },
            ],
          },
        },
      ),
    ],
    expect: waitingFor(notFoundRef('ConfigMap', 'vpc-ref-missing-object-settings')),
  },
  {
    name: 'vpc-ref-missing-field',
    mistake: 'a reference to a key the ConfigMap does not have',
    setup: [configMap('vpc-ref-missing-field-settings', { owner: 'net' })],
    apply: [
      vpc(
        'vpc-ref-missing-field',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-missing-field-settings', fieldPath: 'data.team' },
                toFieldPath: 'spec.forProvider.tags.team',
              },
            ],
          },
        },
      ),
    ],
    expect: waitingFor(/data\.team is not set yet/),
  },
  {
    name: 'vpc-ref-no-such-field',
    mistake: 'a reference that writes a field VPCs do not have',
    setup: [configMap('vpc-ref-no-such-field-settings', { owner: 'net' })],
    apply: [
      vpc(
        'vpc-ref-no-such-field',
        {},
        {
          spec: {
            references: [
              {
                fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-no-such-field-settings', fieldPath: 'data.owner' },
                toFieldPath: 'spec.forProvider.owner',
              },
            ],
          },
        },
      ),
    ],
    expect: synced(/cannot write spec\.forProvider\.owner: the VPC kind has no such field/),
  },
  {
    name: 'vpc-ref-wrong-kind',
    mistake: 'a reference to a ConfigMap by the name of a Secret',
    setup: [secret('vpc-ref-wrong-kind-settings', { team: 'net' })],
    apply: [
      vpc(
        'vpc-ref-wrong-kind',
        {},
        {
          spec: {
            references: [
              {
                patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'vpc-ref-wrong-kind-settings', fieldPath: 'data.team' },
                toFieldPath: 'tags.team',
              },
            ],
          },
        },
      ),
    ],
    expect: waitingFor(notFoundRef('ConfigMap', 'vpc-ref-wrong-kind-settings')),
  },
  {
    name: 'vpc-ref-unknown-kind',
    mistake: 'a reference to a kind that no API serves (Vpc for VPC)',
    apply: [
      vpc(
        'vpc-ref-unknown-kind',
        {},
        {
          spec: {
            references: [
              {
                patchesFrom: { apiVersion: EC2, kind: 'Vpc', name: 'vpc-ref-unknown-kind-other', fieldPath: 'metadata.labels.team' },
                toFieldPath: 'tags.team',
              },
            ],
          },
        },
      ),
    ],
    // No object of a kind the API server does not serve will ever appear: an error, not a wait.
    expect: synced(/ec2\.aws\.chronoplane\.io serves no kind Vpc \(kinds are case-sensitive: did you mean VPC\?\)/),
  },
  // The connection Secret.
  {
    name: 'vpc-connection-secret-namespace',
    mistake: 'a connection Secret in another namespace (hostile)',
    apply: [
      vpc(
        'vpc-connection-secret-namespace',
        {},
        { spec: { writeConnectionSecretToRef: { name: 'vpc-connection-secret-namespace', namespace: 'kube-system' } } },
      ),
    ],
    expect: refused(unknownField('spec.writeConnectionSecretToRef.namespace')),
  },
  {
    name: 'vpc-connection-secret-taken',
    mistake: 'a connection Secret named like a Secret someone else made',
    setup: [secret('vpc-connection-secret-taken-theirs', { token: 'theirs' })],
    apply: [
      vpc(
        'vpc-connection-secret-taken',
        { cidrBlock: '10.13.0.0/16' },
        { spec: { writeConnectionSecretToRef: { name: 'vpc-connection-secret-taken-theirs' } } },
      ),
    ],
    expect: synced(
      new RegExp(
        `cannot publish connection details: Secret ${CORPUS_NAMESPACE}/vpc-connection-secret-taken-theirs was not created by Chronoplane`,
      ),
    ),
  },
];

const policyCases: BadInputCase[] = [
  {
    name: 'policy-deletion-retain',
    mistake: 'deletionPolicy Retain, a word from elsewhere',
    apply: [vpc('policy-deletion-retain', {}, { spec: { deletionPolicy: 'Retain' } })],
    expect: refused(unsupported('spec.deletionPolicy', 'Retain')),
  },
  {
    name: 'policy-deletion-lowercase',
    mistake: 'deletionPolicy in lower case',
    apply: [vpc('policy-deletion-lowercase', {}, { spec: { deletionPolicy: 'orphan' } })],
    expect: refused(unsupported('spec.deletionPolicy', 'orphan')),
  },
  {
    name: 'policy-star-and-observe',
    mistake: 'managementPolicies "*" together with Observe',
    apply: [vpc('policy-star-and-observe', {}, { spec: { managementPolicies: ['*', 'Observe'] } })],
    expect: refused(invalid('spec.managementPolicies', 'managementPolicies: "*" cannot be combined with other actions')),
  },
  {
    name: 'policy-duplicate',
    mistake: 'the same management policy twice',
    apply: [vpc('policy-duplicate', {}, { spec: { managementPolicies: ['Observe', 'Observe'] } })],
    expect: refused(field('spec.managementPolicies[1]', 'Duplicate value: "Observe"')),
  },
  {
    name: 'policy-unknown-action',
    mistake: 'a management policy that is not an action (Read)',
    apply: [vpc('policy-unknown-action', {}, { spec: { managementPolicies: ['Read'] } })],
    expect: refused(unsupported('spec.managementPolicies[0]', 'Read')),
  },
  {
    name: 'policy-singular-field',
    mistake: 'provider-kubernetes’ managementPolicy on an EC2 kind',
    apply: [vpc('policy-singular-field', {}, { spec: { managementPolicy: 'Observe' } })],
    expect: refused(unknownField('spec.managementPolicy')),
  },
  {
    name: 'policy-observe-nothing-named',
    mistake: 'Observe only, without naming the VPC to observe',
    apply: [vpc('policy-observe-nothing-named', {}, { spec: { managementPolicies: ['Observe'] } })],
    expect: synced(/no external resource is named by crossplane\.io\/external-name, and the management policies do not allow Create/),
  },
  {
    name: 'policy-observe-missing-vpc',
    mistake: 'Observe only, naming a VPC that does not exist',
    apply: [
      vpc(
        'policy-observe-missing-vpc',
        {},
        {
          metadata: { annotations: { 'crossplane.io/external-name': 'vpc-0123456789abcdef0' } },
          spec: { managementPolicies: ['Observe'] },
        },
      ),
    ],
    expect: synced(/external resource vpc-0123456789abcdef0 does not exist, and the management policies do not allow Create/),
  },
  {
    name: 'policy-none',
    mistake: 'an empty list of management policies',
    apply: [vpc('policy-none', {}, { spec: { managementPolicies: [] } })],
    expect: synced(/management policies do not allow Create/),
  },
];

const subnetCases: BadInputCase[] = [
  {
    name: 'subnet-cidr-host-bits',
    mistake: 'a subnet CIDR with host bits set',
    apply: [subnet('subnet-cidr-host-bits', { vpcId: MISSING_VPC, cidrBlock: '10.20.1.7/24' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'subnet-cidr-trailing',
    mistake: 'a subnet CIDR with trailing garbage',
    apply: [subnet('subnet-cidr-trailing', { vpcId: MISSING_VPC, cidrBlock: '10.20.1.0/24x' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'subnet-cidr-spaces',
    mistake: 'spaces around a subnet CIDR',
    apply: [subnet('subnet-cidr-spaces', { vpcId: MISSING_VPC, cidrBlock: ' 10.20.1.0/24 ' })],
    expect: refused(cidr('spec.forProvider.cidrBlock', 4)),
  },
  {
    name: 'subnet-prefix-29',
    mistake: 'a subnet smaller than EC2 allows (/29)',
    apply: [subnet('subnet-prefix-29', { vpcId: MISSING_VPC, cidrBlock: '10.20.1.0/29' })],
    expect: refused(invalid('spec.forProvider.cidrBlock', 'EC2 accepts netmasks from /16 to /28')),
  },
  {
    name: 'subnet-prefix-15',
    mistake: 'a subnet larger than EC2 allows (/15)',
    apply: [subnet('subnet-prefix-15', { vpcId: MISSING_VPC, cidrBlock: '10.20.0.0/15' })],
    expect: refused(invalid('spec.forProvider.cidrBlock', 'EC2 accepts netmasks from /16 to /28')),
  },
  {
    name: 'subnet-no-vpc',
    mistake: 'a subnet that names no VPC',
    apply: [subnet('subnet-no-vpc')],
    expect: refused(invalid('spec.forProvider', 'one of vpcId, vpcIdRef or vpcIdSelector is required')),
  },
  {
    name: 'subnet-ref-namespace',
    mistake: 'a VPC reference into another namespace (hostile)',
    apply: [subnet('subnet-ref-namespace', { vpcIdRef: { name: 'network', namespace: 'kube-system' } })],
    expect: refused(unknownField('spec.forProvider.vpcIdRef.namespace')),
  },
  {
    name: 'subnet-ref-empty-name',
    mistake: 'a VPC reference with an empty name',
    apply: [subnet('subnet-ref-empty-name', { vpcIdRef: { name: '' } })],
    expect: refused(invalid('spec.forProvider.vpcIdRef.name', 'should be at least 1 chars long')),
  },
  {
    name: 'subnet-ref-policy-enum',
    mistake: 'a reference policy that does not exist',
    apply: [subnet('subnet-ref-policy-enum', { vpcIdRef: { name: 'network', policy: { resolution: 'Sometimes' } } })],
    expect: refused(unsupported('spec.forProvider.vpcIdRef.policy.resolution', 'Sometimes')),
  },
  {
    name: 'subnet-zone-other-region',
    mistake: 'an Availability Zone of another region',
    apply: [subnet('subnet-zone-other-region', { vpcId: MISSING_VPC, availabilityZone: 'eu-west-1a' })],
    expect: refused(invalid('spec.forProvider', 'availabilityZone must be a zone of the region')),
  },
  {
    name: 'subnet-public-ip-string',
    mistake: 'mapPublicIpOnLaunch as the string "true"',
    apply: [subnet('subnet-public-ip-string', { vpcId: MISSING_VPC, mapPublicIpOnLaunch: 'true' })],
    expect: refused(invalid('spec.forProvider.mapPublicIpOnLaunch', 'must be of type boolean')),
  },
  {
    name: 'subnet-edit-cidr',
    mistake: 'a changed cidrBlock on a subnet that exists',
    setup: [
      vpc('subnet-edit-cidr-network', { cidrBlock: '10.21.0.0/16' }),
      subnet('subnet-edit-cidr', { vpcIdRef: { name: 'subnet-edit-cidr-network' }, cidrBlock: '10.21.1.0/24' }),
    ],
    readyFirst: [{ kind: 'subnet', name: 'subnet-edit-cidr' }],
    apply: [subnet('subnet-edit-cidr', { vpcIdRef: { name: 'subnet-edit-cidr-network' }, cidrBlock: '10.21.2.0/24' })],
    expect: refused(immutable('spec.forProvider.cidrBlock')),
  },
  {
    name: 'subnet-edit-zone',
    mistake: 'a changed Availability Zone on a subnet that exists',
    setup: [
      vpc('subnet-edit-zone-network', { cidrBlock: '10.22.0.0/16' }),
      subnet('subnet-edit-zone', { vpcIdRef: { name: 'subnet-edit-zone-network' }, cidrBlock: '10.22.1.0/24' }),
    ],
    readyFirst: [{ kind: 'subnet', name: 'subnet-edit-zone' }],
    apply: [
      subnet('subnet-edit-zone', {
        vpcIdRef: { name: 'subnet-edit-zone-network' },
        cidrBlock: '10.22.1.0/24',
        availabilityZone: 'us-east-1b',
      }),
    ],
    expect: refused(immutable('spec.forProvider.availabilityZone')),
  },
  {
    name: 'subnet-edit-vpc-id',
    mistake: 'a subnet moved to another VPC by editing vpcId',
    setup: [subnet('subnet-edit-vpc-id', { vpcId: MISSING_VPC })],
    apply: [subnet('subnet-edit-vpc-id', { vpcId: 'vpc-0000000000000000e' })],
    expect: refused(invalid('spec.forProvider', 'vpcId is immutable; only vpcIdRef or vpcIdSelector may fill it in')),
  },
  {
    name: 'subnet-overlap',
    mistake: 'a subnet CIDR that overlaps another subnet of the VPC',
    setup: [
      vpc('subnet-overlap-network', { cidrBlock: '10.23.0.0/16' }),
      subnet('subnet-overlap-first', { vpcIdRef: { name: 'subnet-overlap-network' }, cidrBlock: '10.23.1.0/24' }),
    ],
    readyFirst: [{ kind: 'subnet', name: 'subnet-overlap-first' }],
    apply: [subnet('subnet-overlap', { vpcIdRef: { name: 'subnet-overlap-network' }, cidrBlock: '10.23.1.128/25' })],
    expect: synced(/InvalidSubnet\.Conflict: The CIDR '10\.23\.1\.128\/25' conflicts with another subnet/),
  },
  {
    name: 'subnet-outside-vpc',
    mistake: 'a subnet CIDR outside its VPC’s range',
    setup: [vpc('subnet-outside-vpc-network', { cidrBlock: '10.24.0.0/16' })],
    readyFirst: [{ kind: 'vpc', name: 'subnet-outside-vpc-network' }],
    apply: [subnet('subnet-outside-vpc', { vpcIdRef: { name: 'subnet-outside-vpc-network' }, cidrBlock: '10.99.1.0/24' })],
    expect: synced(/InvalidSubnet\.Range: The CIDR '10\.99\.1\.0\/24' is invalid/),
  },
  {
    name: 'subnet-vpc-ref-missing',
    mistake: 'a reference to a VPC that does not exist',
    apply: [subnet('subnet-vpc-ref-missing', { vpcIdRef: { name: 'subnet-vpc-ref-missing-network' } })],
    expect: waitingFor(notFoundRef('VPC', 'subnet-vpc-ref-missing-network')),
  },
  {
    name: 'subnet-vpc-ref-wrong-kind',
    mistake: 'a VPC reference that names an Address',
    setup: [address('subnet-vpc-ref-wrong-kind-eip')],
    apply: [subnet('subnet-vpc-ref-wrong-kind', { vpcIdRef: { name: 'subnet-vpc-ref-wrong-kind-eip' } })],
    expect: waitingFor(notFoundRef('VPC', 'subnet-vpc-ref-wrong-kind-eip')),
  },
  {
    name: 'subnet-vpc-other-namespace',
    mistake: 'a reference to a VPC that exists only in another namespace (hostile)',
    setup: [
      namespace('subnet-vpc-other-namespace'),
      {
        ...vpc('subnet-vpc-other-namespace-network'),
        metadata: { name: 'subnet-vpc-other-namespace-network', namespace: 'subnet-vpc-other-namespace' },
      },
    ],
    apply: [subnet('subnet-vpc-other-namespace', { vpcIdRef: { name: 'subnet-vpc-other-namespace-network' } })],
    expect: waitingFor(notFoundRef('VPC', 'subnet-vpc-other-namespace-network')),
  },
  {
    name: 'subnet-vpc-id-missing',
    mistake: 'a raw vpcId that does not exist',
    apply: [subnet('subnet-vpc-id-missing', { vpcId: MISSING_VPC })],
    expect: synced(new RegExp(`InvalidVpcID\\.NotFound: VpcID ${MISSING_VPC} does not exist`)),
  },
  {
    name: 'subnet-selector-none',
    mistake: 'a VPC selector that matches nothing',
    apply: [subnet('subnet-selector-none', { vpcIdSelector: { matchLabels: { 'bad-input-case': 'subnet-selector-none' } } })],
    expect: waitingFor(/vpcIdSelector \{bad-input-case=subnet-selector-none\}: no VPC matches/),
  },
  {
    name: 'subnet-selector-two',
    mistake: 'a VPC selector that matches two VPCs',
    setup: [
      vpc('subnet-selector-two-a', { cidrBlock: '10.25.0.0/16' }, labelled('subnet-selector-two')),
      vpc('subnet-selector-two-b', { cidrBlock: '10.26.0.0/16' }, labelled('subnet-selector-two')),
    ],
    apply: [
      subnet('subnet-selector-two', {
        vpcIdSelector: { matchLabels: { 'bad-input-case': 'subnet-selector-two' } },
        cidrBlock: '10.25.1.0/24',
      }),
    ],
    expect: synced(/matches 2 VPCs \(subnet-selector-two-a, subnet-selector-two-b\); it must select exactly one/),
  },
  {
    name: 'subnet-zone-unknown',
    mistake: 'an Availability Zone the region does not have',
    setup: [vpc('subnet-zone-unknown-network', { cidrBlock: '10.27.0.0/16' })],
    readyFirst: [{ kind: 'vpc', name: 'subnet-zone-unknown-network' }],
    apply: [
      subnet('subnet-zone-unknown', {
        vpcIdRef: { name: 'subnet-zone-unknown-network' },
        cidrBlock: '10.27.1.0/24',
        availabilityZone: 'us-east-1z',
      }),
    ],
    expect: synced(/Value \(us-east-1z\) for parameter availabilityZone is invalid/),
  },
  {
    name: 'subnet-other-region',
    mistake: 'a subnet in another region than the VPC it refers to',
    setup: [vpc('subnet-other-region-network', { cidrBlock: '10.28.0.0/16' })],
    readyFirst: [{ kind: 'vpc', name: 'subnet-other-region-network' }],
    apply: [
      subnet('subnet-other-region', {
        region: 'us-west-2',
        availabilityZone: 'us-west-2a',
        vpcIdRef: { name: 'subnet-other-region-network' },
        cidrBlock: '10.28.1.0/24',
      }),
    ],
    // EC2 would say only InvalidVpcID.NotFound (the VPC exists, in the other region).
    expect: synced(/VPC [^ ]+\/subnet-other-region-network: it is in region us-east-1, this object in us-west-2/),
  },
];

const gatewayCases: BadInputCase[] = [
  {
    name: 'igw-tag-bell',
    mistake: 'a control character (BEL) in an internet gateway’s tag',
    apply: [internetGateway('igw-tag-bell', { tags: { ring: 'bell\u0007' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  {
    name: 'igw-vpc-id-typo',
    mistake: 'vpcID for vpcId',
    apply: [internetGateway('igw-vpc-id-typo', { vpcID: MISSING_VPC })],
    expect: refused(unknownField('spec.forProvider.vpcID')),
  },
  {
    name: 'igw-edit-region',
    mistake: 'a changed region on an internet gateway',
    setup: [internetGateway('igw-edit-region')],
    apply: [internetGateway('igw-edit-region', { region: 'eu-west-1' })],
    expect: refused(immutable('spec.forProvider.region')),
  },
  {
    name: 'igw-vpc-id-missing',
    mistake: 'an internet gateway attached to a VPC that does not exist',
    apply: [internetGateway('igw-vpc-id-missing', { vpcId: MISSING_VPC })],
    expect: synced(new RegExp(`InvalidVpcID\\.NotFound: VpcID ${MISSING_VPC} does not exist`)),
  },
  {
    name: 'igw-vpc-ref-missing',
    mistake: 'an internet gateway referring to a VPC that does not exist',
    apply: [internetGateway('igw-vpc-ref-missing', { vpcIdRef: { name: 'igw-vpc-ref-missing-network' } })],
    expect: waitingFor(notFoundRef('VPC', 'igw-vpc-ref-missing-network')),
  },
  {
    name: 'igw-vpc-selector-none',
    mistake: 'an internet gateway whose VPC selector matches nothing',
    apply: [internetGateway('igw-vpc-selector-none', { vpcIdSelector: { matchLabels: { 'bad-input-case': 'igw-vpc-selector-none' } } })],
    expect: waitingFor(/no VPC matches/),
  },
];

const routeTableCases: BadInputCase[] = [
  {
    name: 'rtb-no-vpc',
    mistake: 'a route table that names no VPC',
    apply: [routeTable('rtb-no-vpc')],
    expect: refused(invalid('spec.forProvider', 'one of vpcId, vpcIdRef or vpcIdSelector is required')),
  },
  {
    name: 'rtb-inline-routes',
    mistake: 'routes written inline, as other providers allow',
    apply: [
      routeTable('rtb-inline-routes', { vpcId: MISSING_VPC, routes: [{ destinationCidrBlock: '0.0.0.0/0', gatewayId: MISSING_GATEWAY }] }),
    ],
    expect: refused(unknownField('spec.forProvider.routes')),
  },
  {
    name: 'rtb-edit-vpc-id',
    mistake: 'a route table moved to another VPC by editing vpcId',
    setup: [routeTable('rtb-edit-vpc-id', { vpcId: MISSING_VPC })],
    apply: [routeTable('rtb-edit-vpc-id', { vpcId: 'vpc-0000000000000000e' })],
    expect: refused(invalid('spec.forProvider', 'vpcId is immutable; only vpcIdRef or vpcIdSelector may fill it in')),
  },
  {
    name: 'rtb-vpc-id-missing',
    mistake: 'a route table in a VPC that does not exist',
    apply: [routeTable('rtb-vpc-id-missing', { vpcId: MISSING_VPC })],
    expect: synced(new RegExp(`InvalidVpcID\\.NotFound: VpcID ${MISSING_VPC} does not exist`)),
  },
  {
    name: 'rtb-vpc-selector-none',
    mistake: 'a route table whose VPC selector matches nothing',
    apply: [routeTable('rtb-vpc-selector-none', { vpcIdSelector: { matchLabels: { 'bad-input-case': 'rtb-vpc-selector-none' } } })],
    expect: waitingFor(/vpcIdSelector \{bad-input-case=rtb-vpc-selector-none\}: no VPC matches/),
  },
  {
    name: 'rtb-vpc-ref-paused',
    mistake: 'a route table referring to a VPC that is paused and has no ID yet',
    setup: [vpc('rtb-vpc-ref-paused-network', {}, { metadata: { annotations: { 'crossplane.io/paused': 'true' } } })],
    apply: [routeTable('rtb-vpc-ref-paused', { vpcIdRef: { name: 'rtb-vpc-ref-paused-network' } })],
    expect: waitingFor(new RegExp(`VPC ${CORPUS_NAMESPACE}/rtb-vpc-ref-paused-network: not Ready yet`)),
  },
];

/** A VPC and route table for the cases whose mistake is in a route or an association. */
const tableSetup = (prefix: string, cidrBlock: string) => [
  vpc(`${prefix}-network`, { cidrBlock }),
  routeTable(`${prefix}-table`, { vpcIdRef: { name: `${prefix}-network` } }),
];

const routeCases: BadInputCase[] = [
  {
    name: 'route-dest-host-bits',
    mistake: 'a route destination with host bits set',
    apply: [
      route('route-dest-host-bits', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY, destinationCidrBlock: '10.0.0.1/16' }),
    ],
    expect: refused(cidr('spec.forProvider.destinationCidrBlock', 4)),
  },
  {
    name: 'route-dest-ipv6',
    mistake: 'an IPv6 default route in the IPv4 destination',
    apply: [route('route-dest-ipv6', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY, destinationCidrBlock: '::/0' })],
    expect: refused(cidr('spec.forProvider.destinationCidrBlock', 4)),
  },
  {
    name: 'route-no-target',
    mistake: 'a route with no target',
    apply: [route('route-no-target', { routeTableId: MISSING_TABLE })],
    expect: refused(invalid('spec.forProvider', 'set exactly one target')),
  },
  {
    name: 'route-two-targets',
    mistake: 'a route to both an internet and a NAT gateway',
    apply: [route('route-two-targets', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY, natGatewayId: 'nat-0000000000000000a' })],
    expect: refused(invalid('spec.forProvider', 'set exactly one target')),
  },
  {
    name: 'route-ref-and-instance',
    mistake: 'a route to a referenced gateway and an instance',
    apply: [
      route('route-ref-and-instance', {
        routeTableId: MISSING_TABLE,
        gatewayIdRef: { name: 'route-ref-and-instance-gateway' },
        instanceId: 'i-0000000000000000a',
      }),
    ],
    expect: refused(invalid('spec.forProvider', 'set exactly one target')),
  },
  {
    name: 'route-no-table',
    mistake: 'a route in no route table',
    apply: [route('route-no-table', { gatewayId: MISSING_GATEWAY })],
    expect: refused(invalid('spec.forProvider', 'one of routeTableId, routeTableIdRef or routeTableIdSelector is required')),
  },
  {
    name: 'route-edit-destination',
    mistake: 'a changed destination on a route',
    setup: [route('route-edit-destination', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY })],
    apply: [
      route('route-edit-destination', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY, destinationCidrBlock: '10.0.0.0/8' }),
    ],
    expect: refused(immutable('spec.forProvider.destinationCidrBlock')),
  },
  {
    name: 'route-table-ref-missing',
    mistake: 'a route in a route table that does not exist',
    apply: [route('route-table-ref-missing', { routeTableIdRef: { name: 'route-table-ref-missing-table' }, gatewayId: MISSING_GATEWAY })],
    expect: waitingFor(notFoundRef('RouteTable', 'route-table-ref-missing-table')),
  },
  {
    name: 'route-table-id-missing',
    mistake: 'a raw route table ID that does not exist',
    apply: [route('route-table-id-missing', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY })],
    expect: synced(new RegExp(`${MISSING_TABLE}`)),
  },
  {
    name: 'route-gateway-missing',
    mistake: 'a route to an internet gateway that does not exist',
    setup: tableSetup('route-gateway-missing', '10.30.0.0/16'),
    readyFirst: [{ kind: 'routetable', name: 'route-gateway-missing-table' }],
    apply: [route('route-gateway-missing', { routeTableIdRef: { name: 'route-gateway-missing-table' }, gatewayId: MISSING_GATEWAY })],
    expect: synced(new RegExp(`InvalidInternetGatewayID\\.NotFound: InternetGatewayID ${MISSING_GATEWAY} does not exist`)),
  },
  {
    name: 'route-instance-missing',
    mistake: 'a route to an instance that does not exist',
    setup: tableSetup('route-instance-missing', '10.31.0.0/16'),
    readyFirst: [{ kind: 'routetable', name: 'route-instance-missing-table' }],
    apply: [
      route('route-instance-missing', { routeTableIdRef: { name: 'route-instance-missing-table' }, instanceId: 'i-0000000000000000a' }),
    ],
    expect: synced(/InvalidInstanceID\.NotFound: The instance ID 'i-0000000000000000a' does not exist/),
  },
  {
    name: 'route-gateway-ref-missing',
    mistake: 'a route to a referenced internet gateway that does not exist',
    setup: tableSetup('route-gateway-ref-missing', '10.32.0.0/16'),
    apply: [
      route('route-gateway-ref-missing', {
        routeTableIdRef: { name: 'route-gateway-ref-missing-table' },
        gatewayIdRef: { name: 'route-gateway-ref-missing-gateway' },
      }),
    ],
    expect: waitingFor(notFoundRef('InternetGateway', 'route-gateway-ref-missing-gateway')),
  },
  {
    name: 'route-duplicate',
    mistake: 'a second Route object for a route another one already makes',
    setup: [
      ...tableSetup('route-duplicate', '10.33.0.0/16'),
      internetGateway('route-duplicate-gateway', { vpcIdRef: { name: 'route-duplicate-network' } }),
      route('route-duplicate-first', {
        routeTableIdRef: { name: 'route-duplicate-table' },
        gatewayIdRef: { name: 'route-duplicate-gateway' },
      }),
    ],
    readyFirst: [{ kind: 'route', name: 'route-duplicate-first' }],
    apply: [
      route('route-duplicate', { routeTableIdRef: { name: 'route-duplicate-table' }, gatewayIdRef: { name: 'route-duplicate-gateway' } }),
    ],
    expect: synced(managedBy('Route', 'route-duplicate-first', 'delete one of the two Routes')),
  },
];

const associationCases: BadInputCase[] = [
  {
    name: 'rtba-subnet-and-gateway',
    mistake: 'an association with both a subnet and a gateway',
    apply: [association('rtba-subnet-and-gateway', { routeTableId: MISSING_TABLE, subnetId: MISSING_SUBNET, gatewayId: MISSING_GATEWAY })],
    expect: refused(invalid('spec.forProvider', 'set exactly one of subnetId (or subnetIdRef or subnetIdSelector) and gatewayId')),
  },
  {
    name: 'rtba-nothing',
    mistake: 'an association with neither a subnet nor a gateway',
    apply: [association('rtba-nothing', { routeTableId: MISSING_TABLE })],
    expect: refused(invalid('spec.forProvider', 'set exactly one of subnetId (or subnetIdRef or subnetIdSelector) and gatewayId')),
  },
  {
    name: 'rtba-no-table',
    mistake: 'an association of no route table',
    apply: [association('rtba-no-table', { subnetId: MISSING_SUBNET })],
    expect: refused(invalid('spec.forProvider', 'one of routeTableId, routeTableIdRef or routeTableIdSelector is required')),
  },
  {
    name: 'rtba-edit-gateway',
    mistake: 'an association moved to another gateway',
    setup: [association('rtba-edit-gateway', { routeTableId: MISSING_TABLE, gatewayId: MISSING_GATEWAY })],
    apply: [association('rtba-edit-gateway', { routeTableId: MISSING_TABLE, gatewayId: 'igw-0000000000000000b' })],
    expect: refused(immutable('spec.forProvider.gatewayId')),
  },
  {
    name: 'rtba-subnet-missing',
    mistake: 'an association with a subnet that does not exist',
    setup: tableSetup('rtba-subnet-missing', '10.34.0.0/16'),
    readyFirst: [{ kind: 'routetable', name: 'rtba-subnet-missing-table' }],
    apply: [association('rtba-subnet-missing', { routeTableIdRef: { name: 'rtba-subnet-missing-table' }, subnetId: MISSING_SUBNET })],
    expect: synced(new RegExp(`InvalidSubnetID\\.NotFound: The subnet ID '${MISSING_SUBNET}' does not exist`)),
  },
  {
    name: 'rtba-subnet-ref-missing',
    mistake: 'an association with a referenced subnet that does not exist',
    setup: tableSetup('rtba-subnet-ref-missing', '10.35.0.0/16'),
    apply: [
      association('rtba-subnet-ref-missing', {
        routeTableIdRef: { name: 'rtba-subnet-ref-missing-table' },
        subnetIdRef: { name: 'rtba-subnet-ref-missing-subnet' },
      }),
    ],
    expect: waitingFor(notFoundRef('Subnet', 'rtba-subnet-ref-missing-subnet')),
  },
  {
    name: 'rtba-duplicate',
    mistake: 'a second association object for an association another one already makes',
    setup: [
      ...tableSetup('rtba-duplicate', '10.36.0.0/16'),
      subnet('rtba-duplicate-subnet', { vpcIdRef: { name: 'rtba-duplicate-network' }, cidrBlock: '10.36.1.0/24' }),
      association('rtba-duplicate-first', {
        routeTableIdRef: { name: 'rtba-duplicate-table' },
        subnetIdRef: { name: 'rtba-duplicate-subnet' },
      }),
    ],
    readyFirst: [{ kind: 'routetableassociation', name: 'rtba-duplicate-first' }],
    apply: [
      association('rtba-duplicate', { routeTableIdRef: { name: 'rtba-duplicate-table' }, subnetIdRef: { name: 'rtba-duplicate-subnet' } }),
    ],
    expect: synced(managedBy('RouteTableAssociation', 'rtba-duplicate-first', 'delete one of the two objects')),
  },
];

const securityGroupCases: BadInputCase[] = [
  {
    name: 'secgroup-no-description',
    mistake: 'a security group without the description EC2 requires',
    apply: [securityGroup('secgroup-no-description', { description: undefined })],
    expect: refused(required('spec.forProvider.description')),
  },
  {
    name: 'secgroup-description-256',
    mistake: 'a description over 255 characters',
    apply: [securityGroup('secgroup-description-256', { description: sized('d', 256) })],
    expect: refused(field('spec.forProvider.description', 'Too long')),
  },
  {
    name: 'secgroup-description-unicode',
    mistake: 'a non-ASCII description, which EC2 refuses for VPC groups',
    apply: [securityGroup('secgroup-description-unicode', { description: 'réseau de l’équipe' })],
    expect: refused(invalid('spec.forProvider.description', 'description may contain only')),
  },
  {
    name: 'secgroup-description-nul',
    mistake: 'a NUL byte in a description (hostile)',
    apply: [securityGroup('secgroup-description-nul', { description: 'web\u0000tier' })],
    expect: refused(invalid('spec.forProvider.description', 'description may contain only')),
  },
  {
    name: 'secgroup-name-sg-prefix',
    mistake: 'a group name starting with sg-, like an ID',
    apply: [securityGroup('secgroup-name-sg-prefix', { groupName: 'sg-web' })],
    expect: refused(invalid('spec.forProvider.groupName', 'groupName cannot start with sg-')),
  },
  {
    name: 'secgroup-name-empty',
    mistake: 'an empty group name',
    apply: [securityGroup('secgroup-name-empty', { groupName: '' })],
    expect: refused(invalid('spec.forProvider.groupName', 'should be at least 1 chars long')),
  },
  {
    name: 'secgroup-name-newline',
    mistake: 'a newline in a group name',
    apply: [securityGroup('secgroup-name-newline', { groupName: 'web\ntier' })],
    expect: refused(invalid('spec.forProvider.groupName', 'groupName may contain only')),
  },
  {
    name: 'secgroup-revoke-egress-string',
    mistake: 'revokeDefaultEgress as a string',
    apply: [securityGroup('secgroup-revoke-egress-string', { revokeDefaultEgress: 'yes' })],
    expect: refused(invalid('spec.forProvider.revokeDefaultEgress', 'must be of type boolean')),
  },
  {
    name: 'secgroup-inline-rules',
    mistake: 'ingress rules written inline, as other providers allow',
    apply: [securityGroup('secgroup-inline-rules', { ingress: [{ fromPort: 443, toPort: 443, ipProtocol: 'tcp' }] })],
    expect: refused(unknownField('spec.forProvider.ingress')),
  },
  {
    name: 'secgroup-edit-name',
    mistake: 'a renamed security group',
    setup: [securityGroup('secgroup-edit-name', { groupName: 'secgroup-edit-name-web' })],
    readyFirst: [{ kind: 'securitygroup', name: 'secgroup-edit-name' }],
    apply: [securityGroup('secgroup-edit-name', { groupName: 'secgroup-edit-name-www' })],
    expect: refused(immutable('spec.forProvider.groupName')),
  },
  {
    name: 'secgroup-edit-description',
    mistake: 'a changed description, which EC2 cannot change',
    setup: [securityGroup('secgroup-edit-description')],
    apply: [securityGroup('secgroup-edit-description', { description: 'a better description' })],
    expect: refused(immutable('spec.forProvider.description')),
  },
  {
    name: 'secgroup-vpc-ref-missing',
    mistake: 'a security group in a referenced VPC that does not exist',
    apply: [securityGroup('secgroup-vpc-ref-missing', { vpcIdRef: { name: 'secgroup-vpc-ref-missing-network' } })],
    expect: waitingFor(notFoundRef('VPC', 'secgroup-vpc-ref-missing-network')),
  },
  {
    name: 'secgroup-name-taken',
    mistake: 'a group name another security group of the VPC has',
    setup: [
      vpc('secgroup-name-taken-network', { cidrBlock: '10.40.0.0/16' }),
      securityGroup('secgroup-name-taken-first', {
        groupName: 'secgroup-name-taken-web',
        vpcIdRef: { name: 'secgroup-name-taken-network' },
      }),
    ],
    readyFirst: [{ kind: 'securitygroup', name: 'secgroup-name-taken-first' }],
    apply: [
      securityGroup('secgroup-name-taken', { groupName: 'secgroup-name-taken-web', vpcIdRef: { name: 'secgroup-name-taken-network' } }),
    ],
    expect: synced(/secgroup-name-taken-web/),
  },
  {
    name: 'sg-named-object',
    mistake: 'a security group object named sg-…, without a groupName: the name it defaults to is one EC2 forbids',
    apply: [securityGroup('sg-named-object')],
    // moto makes the group (EC2 would refuse it); the groupName it adopts is then refused at
    // admission, and that is what the user reads, backing off.
    expect: synced(/cannot record spec\.forProvider\.groupName.*groupName cannot start with sg-/),
  },
  {
    name: 'secgroup-name-253',
    mistake: 'a security group whose name, and so its group name, is 253 characters',
    apply: [securityGroup(sized('secgroup-name-253-', 253))],
    expect: ready('True', /^$/),
  },
];

const ruleCases: BadInputCase[] = [
  {
    name: 'sgr-protocol-http',
    mistake: 'an application protocol (http) for an IP protocol',
    apply: [rule('sgr-protocol-http', { securityGroupId: MISSING_GROUP, ipProtocol: 'http' })],
    expect: refused(invalid('spec.forProvider.ipProtocol', 'spec.forProvider.ipProtocol in body should match')),
  },
  {
    name: 'sgr-protocol-256',
    mistake: 'a protocol number above 255',
    apply: [rule('sgr-protocol-256', { securityGroupId: MISSING_GROUP, ipProtocol: '256' })],
    expect: refused(invalid('spec.forProvider.ipProtocol', 'spec.forProvider.ipProtocol in body should match')),
  },
  {
    name: 'sgr-protocol-uppercase',
    mistake: 'a protocol in capitals',
    apply: [rule('sgr-protocol-uppercase', { securityGroupId: MISSING_GROUP, ipProtocol: 'TCP' })],
    expect: refused(invalid('spec.forProvider.ipProtocol', 'spec.forProvider.ipProtocol in body should match')),
  },
  {
    name: 'sgr-port-70000',
    mistake: 'a port above 65535',
    apply: [rule('sgr-port-70000', { securityGroupId: MISSING_GROUP, toPort: 70000 })],
    expect: refused(invalid('spec.forProvider.toPort', 'should be less than or equal to 65535')),
  },
  {
    name: 'sgr-port-minus-two',
    mistake: 'a port below -1',
    apply: [rule('sgr-port-minus-two', { securityGroupId: MISSING_GROUP, ipProtocol: 'icmp', fromPort: -2, toPort: -1 })],
    expect: refused(invalid('spec.forProvider.fromPort', 'should be greater than or equal to -1')),
  },
  {
    name: 'sgr-port-string',
    mistake: 'a port written as a string',
    apply: [rule('sgr-port-string', { securityGroupId: MISSING_GROUP, fromPort: '443' })],
    expect: refused(invalid('spec.forProvider.fromPort', 'must be of type integer')),
  },
  {
    name: 'sgr-tcp-no-ports',
    mistake: 'a tcp rule without ports',
    apply: [rule('sgr-tcp-no-ports', { securityGroupId: MISSING_GROUP, fromPort: undefined, toPort: undefined })],
    expect: refused(invalid('spec.forProvider', 'tcp and udp rules need fromPort and toPort')),
  },
  {
    name: 'sgr-ports-reversed',
    mistake: 'fromPort above toPort',
    apply: [rule('sgr-ports-reversed', { securityGroupId: MISSING_GROUP, fromPort: 443, toPort: 80 })],
    expect: refused(invalid('spec.forProvider', 'for tcp and udp, fromPort must be between 0 and toPort')),
  },
  {
    name: 'sgr-tcp-all-ports',
    mistake: 'a tcp rule for "all ports" written as -1',
    apply: [rule('sgr-tcp-all-ports', { securityGroupId: MISSING_GROUP, fromPort: -1, toPort: -1 })],
    expect: refused(invalid('spec.forProvider', 'for tcp and udp, fromPort must be between 0 and toPort')),
  },
  {
    name: 'sgr-icmp-type-300',
    mistake: 'an ICMP type above 255',
    apply: [rule('sgr-icmp-type-300', { securityGroupId: MISSING_GROUP, ipProtocol: 'icmp', fromPort: 300, toPort: 0 })],
    expect: refused(invalid('spec.forProvider', 'for icmp and icmpv6, fromPort (the type) and toPort (the code) are -1 or 0 to 255')),
  },
  {
    name: 'sgr-type-inbound',
    mistake: 'a rule type of inbound for ingress',
    apply: [rule('sgr-type-inbound', { securityGroupId: MISSING_GROUP, type: 'inbound' })],
    expect: refused(unsupported('spec.forProvider.type', 'inbound')),
  },
  {
    name: 'sgr-no-source',
    mistake: 'a rule that allows nothing in (no CIDR, group or prefix list)',
    apply: [rule('sgr-no-source', { securityGroupId: MISSING_GROUP, cidrIpv4: undefined })],
    expect: refused(
      invalid(
        'spec.forProvider',
        'exactly one of cidrIpv4, cidrIpv6, prefixListId and referencedGroupId (or its Ref or Selector) is required',
      ),
    ),
  },
  {
    name: 'sgr-two-sources',
    mistake: 'a rule with both an IPv4 and an IPv6 range',
    apply: [rule('sgr-two-sources', { securityGroupId: MISSING_GROUP, cidrIpv6: '2001:db8::/32' })],
    expect: refused(
      invalid(
        'spec.forProvider',
        'exactly one of cidrIpv4, cidrIpv6, prefixListId and referencedGroupId (or its Ref or Selector) is required',
      ),
    ),
  },
  {
    name: 'sgr-cidr-host-bits',
    mistake: 'a rule CIDR with host bits set',
    apply: [rule('sgr-cidr-host-bits', { securityGroupId: MISSING_GROUP, cidrIpv4: '10.0.0.1/8' })],
    expect: refused(cidr('spec.forProvider.cidrIpv4', 4)),
  },
  {
    name: 'sgr-cidr-v6-in-v4',
    mistake: 'an IPv6 range in cidrIpv4',
    apply: [rule('sgr-cidr-v6-in-v4', { securityGroupId: MISSING_GROUP, cidrIpv4: '2001:db8::/32' })],
    expect: refused(cidr('spec.forProvider.cidrIpv4', 4)),
  },
  {
    name: 'sgr-cidr-v6-host-bits',
    mistake: 'an IPv6 rule range with host bits set',
    apply: [rule('sgr-cidr-v6-host-bits', { securityGroupId: MISSING_GROUP, cidrIpv4: undefined, cidrIpv6: '2001:db8::1/32' })],
    expect: refused(cidr('spec.forProvider.cidrIpv6', 6)),
  },
  {
    name: 'sgr-no-group',
    mistake: 'a rule of no security group',
    apply: [rule('sgr-no-group')],
    expect: refused(invalid('spec.forProvider', 'one of securityGroupId, securityGroupIdRef or securityGroupIdSelector is required')),
  },
  {
    name: 'sgr-description-newline',
    mistake: 'a newline in a rule’s description',
    apply: [rule('sgr-description-newline', { securityGroupId: MISSING_GROUP, description: 'line\nbreak' })],
    expect: refused(invalid('spec.forProvider.description', 'description may contain only')),
  },
  {
    name: 'sgr-edit-port',
    mistake: 'a changed port on a rule',
    setup: [rule('sgr-edit-port', { securityGroupId: MISSING_GROUP })],
    apply: [rule('sgr-edit-port', { securityGroupId: MISSING_GROUP, fromPort: 8443, toPort: 8443 })],
    expect: refused(immutable('spec.forProvider.fromPort')),
  },
  {
    name: 'sgr-group-ref-missing',
    mistake: 'a rule of a referenced group that does not exist',
    apply: [rule('sgr-group-ref-missing', { securityGroupIdRef: { name: 'sgr-group-ref-missing-group' } })],
    expect: waitingFor(notFoundRef('SecurityGroup', 'sgr-group-ref-missing-group')),
  },
  {
    name: 'sgr-group-id-missing',
    mistake: 'a rule of a raw group ID that does not exist',
    apply: [rule('sgr-group-id-missing', { securityGroupId: MISSING_GROUP })],
    expect: synced(new RegExp(`InvalidGroup\\.NotFound: The security group '${MISSING_GROUP}' does not exist`)),
  },
  {
    name: 'sgr-peer-missing',
    mistake: 'a rule that lets in a group that does not exist',
    setup: [securityGroup('sgr-peer-missing-group')],
    readyFirst: [{ kind: 'securitygroup', name: 'sgr-peer-missing-group' }],
    apply: [
      rule('sgr-peer-missing', {
        securityGroupIdRef: { name: 'sgr-peer-missing-group' },
        cidrIpv4: undefined,
        referencedGroupId: 'sg-0000000000000000b',
      }),
    ],
    expect: synced(/InvalidGroup\.NotFound: The security group 'sg-0000000000000000b' does not exist/),
  },
  {
    name: 'sgr-peer-ref-missing',
    mistake: 'a rule that lets in a referenced group that does not exist',
    setup: [securityGroup('sgr-peer-ref-missing-group')],
    apply: [
      rule('sgr-peer-ref-missing', {
        securityGroupIdRef: { name: 'sgr-peer-ref-missing-group' },
        cidrIpv4: undefined,
        referencedGroupIdRef: { name: 'sgr-peer-ref-missing-peer' },
      }),
    ],
    expect: waitingFor(notFoundRef('SecurityGroup', 'sgr-peer-ref-missing-peer')),
  },
  {
    name: 'sgr-duplicate',
    mistake: 'a second rule object for a rule another one already makes',
    setup: [securityGroup('sgr-duplicate-group'), rule('sgr-duplicate-first', { securityGroupIdRef: { name: 'sgr-duplicate-group' } })],
    readyFirst: [{ kind: 'securitygrouprule', name: 'sgr-duplicate-first' }],
    apply: [rule('sgr-duplicate', { securityGroupIdRef: { name: 'sgr-duplicate-group' } })],
    expect: synced(/sgr-duplicate-first/),
  },
];

const addressCases: BadInputCase[] = [
  {
    name: 'eip-domain-classic',
    mistake: 'an address domain that does not exist',
    apply: [address('eip-domain-classic', { domain: 'classic' })],
    expect: refused(unsupported('spec.forProvider.domain', 'classic')),
  },
  {
    name: 'eip-pool-65',
    mistake: 'a pool ID over 64 characters',
    apply: [address('eip-pool-65', { publicIpv4Pool: sized('ipv4pool-ec2-', 65) })],
    expect: refused(field('spec.forProvider.publicIpv4Pool', 'Too long')),
  },
  {
    name: 'eip-tag-form-feed',
    mistake: 'a form feed in an address tag key',
    apply: [address('eip-tag-form-feed', { tags: { 'page\fbreak': 'x' } })],
    expect: refused(CONTROL_CHARACTERS),
  },
  {
    name: 'eip-edit-domain',
    mistake: 'a changed domain on an address',
    setup: [address('eip-edit-domain', { domain: 'vpc' })],
    apply: [address('eip-edit-domain', { domain: 'standard' })],
    expect: refused(immutable('spec.forProvider.domain')),
  },
  {
    name: 'eip-domain-standard',
    mistake: 'an EC2-Classic (standard) address, which has no allocation ID',
    apply: [address('eip-domain-standard', { domain: 'standard' })],
    expect: synced(/standard/),
  },
];

const natCases: BadInputCase[] = [
  {
    name: 'nat-public-no-address',
    mistake: 'a public NAT gateway without an Elastic IP',
    apply: [natGateway('nat-public-no-address', { subnetId: MISSING_SUBNET })],
    expect: refused(invalid('spec.forProvider', 'a public NAT gateway needs allocationId, allocationIdRef or allocationIdSelector')),
  },
  {
    name: 'nat-private-with-address',
    mistake: 'a private NAT gateway with an Elastic IP',
    apply: [
      natGateway('nat-private-with-address', { subnetId: MISSING_SUBNET, connectivityType: 'private', allocationId: 'eipalloc-00000000' }),
    ],
    expect: refused(invalid('spec.forProvider', 'a private NAT gateway takes no allocationId, allocationIdRef or allocationIdSelector')),
  },
  {
    name: 'nat-connectivity-internet',
    mistake: 'a connectivity type that does not exist',
    apply: [
      natGateway('nat-connectivity-internet', {
        subnetId: MISSING_SUBNET,
        connectivityType: 'internet',
        allocationId: 'eipalloc-00000000',
      }),
    ],
    expect: refused(unsupported('spec.forProvider.connectivityType', 'internet')),
  },
  {
    name: 'nat-no-subnet',
    mistake: 'a NAT gateway in no subnet',
    apply: [natGateway('nat-no-subnet', { allocationId: 'eipalloc-00000000' })],
    expect: refused(invalid('spec.forProvider', 'one of subnetId, subnetIdRef or subnetIdSelector is required')),
  },
  {
    name: 'nat-edit-connectivity',
    mistake: 'a public NAT gateway made private by an edit',
    setup: [natGateway('nat-edit-connectivity', { subnetId: MISSING_SUBNET, connectivityType: 'private' })],
    apply: [
      natGateway('nat-edit-connectivity', { subnetId: MISSING_SUBNET, connectivityType: 'public', allocationId: 'eipalloc-00000000' }),
    ],
    expect: refused(immutable('spec.forProvider.connectivityType')),
  },
  {
    name: 'nat-subnet-ref-missing',
    mistake: 'a NAT gateway in a referenced subnet that does not exist',
    apply: [natGateway('nat-subnet-ref-missing', { subnetIdRef: { name: 'nat-subnet-ref-missing-subnet' }, connectivityType: 'private' })],
    expect: waitingFor(notFoundRef('Subnet', 'nat-subnet-ref-missing-subnet')),
  },
  {
    name: 'nat-subnet-id-missing',
    mistake: 'a NAT gateway in a raw subnet ID that does not exist',
    apply: [natGateway('nat-subnet-id-missing', { subnetId: MISSING_SUBNET, connectivityType: 'private' })],
    expect: synced(new RegExp(`InvalidSubnetID\\.NotFound: The subnet ID '${MISSING_SUBNET}' does not exist`)),
  },
  {
    name: 'nat-address-missing',
    mistake: 'a NAT gateway with an Elastic IP allocation that does not exist',
    setup: [
      vpc('nat-address-missing-network', { cidrBlock: '10.50.0.0/16' }),
      subnet('nat-address-missing-subnet', { vpcIdRef: { name: 'nat-address-missing-network' }, cidrBlock: '10.50.1.0/24' }),
    ],
    readyFirst: [{ kind: 'subnet', name: 'nat-address-missing-subnet' }],
    apply: [natGateway('nat-address-missing', { subnetIdRef: { name: 'nat-address-missing-subnet' }, allocationId: 'eipalloc-00000000' })],
    expect: synced(/InvalidAllocationID\.NotFound: .*eipalloc-00000000.* not found/),
  },
  {
    name: 'nat-address-ref-missing',
    mistake: 'a NAT gateway with a referenced Address that does not exist',
    setup: [
      vpc('nat-address-ref-missing-network', { cidrBlock: '10.51.0.0/16' }),
      subnet('nat-address-ref-missing-subnet', { vpcIdRef: { name: 'nat-address-ref-missing-network' }, cidrBlock: '10.51.1.0/24' }),
    ],
    apply: [
      natGateway('nat-address-ref-missing', {
        subnetIdRef: { name: 'nat-address-ref-missing-subnet' },
        allocationIdRef: { name: 'nat-address-ref-missing-eip' },
      }),
    ],
    expect: waitingFor(notFoundRef('Address', 'nat-address-ref-missing-eip')),
  },
];

const keyPairCases: BadInputCase[] = [
  {
    name: 'kp-type-dsa',
    mistake: 'a key type EC2 does not make (dsa)',
    apply: [keyPair('kp-type-dsa', { keyType: 'dsa' })],
    expect: refused(unsupported('spec.forProvider.keyType', 'dsa')),
  },
  {
    name: 'kp-name-empty',
    mistake: 'an empty key name',
    apply: [keyPair('kp-name-empty', { keyName: '' })],
    expect: refused(invalid('spec.forProvider.keyName', 'should be at least 1 chars long')),
  },
  {
    name: 'kp-name-256',
    mistake: 'a key name over 255 characters',
    apply: [keyPair('kp-name-256', { keyName: sized('k', 256) })],
    expect: refused(field('spec.forProvider.keyName', 'Too long')),
  },
  {
    name: 'kp-name-unicode',
    mistake: 'a non-ASCII key name, which EC2 refuses',
    apply: [keyPair('kp-name-unicode', { keyName: 'clé-de-déploiement' })],
    expect: refused(invalid('spec.forProvider.keyName', 'keyName may contain only printable ASCII characters')),
  },
  {
    name: 'kp-name-zero-width',
    mistake: 'a zero-width space hidden in a key name (hostile)',
    apply: [keyPair('kp-name-zero-width', { keyName: 'deploy\u200bkey' })],
    expect: refused(invalid('spec.forProvider.keyName', 'keyName may contain only printable ASCII characters')),
  },
  {
    name: 'kp-public-key-garbage',
    mistake: 'a public key that is not an OpenSSH key',
    apply: [keyPair('kp-public-key-garbage', { publicKeyMaterial: 'not a key' })],
    expect: refused(invalid('spec.forProvider.publicKeyMaterial', 'publicKeyMaterial must be an OpenSSH public key')),
  },
  {
    name: 'kp-public-key-private',
    mistake: 'a private key pasted where the public key goes',
    apply: [
      keyPair('kp-public-key-private', {
        publicKeyMaterial: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
      }),
    ],
    expect: refused(invalid('spec.forProvider.publicKeyMaterial', 'publicKeyMaterial must be an OpenSSH public key')),
  },
  {
    name: 'kp-public-key-20kb',
    mistake: 'a public key over 16 KiB',
    apply: [keyPair('kp-public-key-20kb', { publicKeyMaterial: sized('ssh-rsa AAAA', 20_000) })],
    expect: refused(field('spec.forProvider.publicKeyMaterial', 'Too long')),
  },
  {
    name: 'kp-edit-name',
    mistake: 'a renamed key pair',
    setup: [keyPair('kp-edit-name', { publicKeyMaterial: SSH_ED25519 })],
    readyFirst: [{ kind: 'keypair', name: 'kp-edit-name' }],
    apply: [keyPair('kp-edit-name', { publicKeyMaterial: SSH_ED25519, keyName: 'kp-edit-name-renamed' })],
    expect: refused(immutable('spec.forProvider.keyName')),
  },
  {
    name: 'kp-name-taken',
    mistake: 'a key name another key pair object already has',
    setup: [keyPair('kp-name-taken-first', { keyName: 'kp-name-taken-deploy', publicKeyMaterial: SSH_ED25519 })],
    readyFirst: [{ kind: 'keypair', name: 'kp-name-taken-first' }],
    apply: [keyPair('kp-name-taken', { keyName: 'kp-name-taken-deploy', publicKeyMaterial: SSH_ED25519 })],
    expect: synced(
      /cannot create key pair kp-name-taken-deploy: a key pair of that name already exists in us-east-1; choose another keyName/,
    ),
  },
  {
    name: 'kp-connection-secret-taken',
    mistake: 'a private key sent to the Secret that holds the AWS credentials (hostile)',
    setup: [secret('kp-connection-secret-taken-aws', { credentials: credentialsFile() })],
    apply: [
      keyPair('kp-connection-secret-taken', {}, { spec: { writeConnectionSecretToRef: { name: 'kp-connection-secret-taken-aws' } } }),
    ],
    expect: synced(
      new RegExp(
        `cannot publish connection details: Secret ${CORPUS_NAMESPACE}/kp-connection-secret-taken-aws was not created by Chronoplane`,
      ),
    ),
  },
];

const instanceCases: BadInputCase[] = [
  {
    name: 'inst-no-image',
    mistake: 'an instance without an AMI',
    apply: [instance('inst-no-image', { imageId: undefined })],
    expect: refused(required('spec.forProvider.imageId')),
  },
  {
    name: 'inst-no-type',
    mistake: 'an instance without an instance type',
    apply: [instance('inst-no-type', { instanceType: undefined })],
    expect: refused(required('spec.forProvider.instanceType')),
  },
  {
    name: 'inst-tenancy-shared',
    mistake: 'an instance tenancy EC2 does not have',
    apply: [instance('inst-tenancy-shared', { tenancy: 'shared' })],
    expect: refused(unsupported('spec.forProvider.tenancy', 'shared')),
  },
  {
    name: 'inst-tokens-always',
    mistake: 'an IMDS token setting that does not exist',
    apply: [instance('inst-tokens-always', { metadataOptions: { httpTokens: 'always' } })],
    expect: refused(unsupported('spec.forProvider.metadataOptions.httpTokens', 'always')),
  },
  {
    name: 'inst-hop-limit-65',
    mistake: 'an IMDS hop limit over 64',
    apply: [instance('inst-hop-limit-65', { metadataOptions: { httpPutResponseHopLimit: 65 } })],
    expect: refused(invalid('spec.forProvider.metadataOptions.httpPutResponseHopLimit', 'should be less than or equal to 64')),
  },
  {
    name: 'inst-profile-both',
    mistake: 'an instance profile by both ARN and name',
    apply: [instance('inst-profile-both', { iamInstanceProfile: { arn: 'arn:aws:iam::123456789012:instance-profile/web', name: 'web' } })],
    expect: refused(invalid('spec.forProvider.iamInstanceProfile', 'iamInstanceProfile takes exactly one of arn and name')),
  },
  {
    name: 'inst-volume-size-0',
    mistake: 'a volume of 0 GiB',
    apply: [instance('inst-volume-size-0', { blockDeviceMappings: [{ deviceName: '/dev/sdh', ebs: { volumeSize: 0 } }] })],
    expect: refused(invalid('spec.forProvider.blockDeviceMappings[0].ebs.volumeSize', 'should be greater than or equal to 1')),
  },
  {
    name: 'inst-groups-17',
    mistake: '17 security groups, over EC2’s 16',
    apply: [instance('inst-groups-17', { securityGroupIds: Array.from({ length: 17 }, (_, i) => `sg-${String(i).padStart(17, '0')}`) })],
    expect: refused(field('spec.forProvider.securityGroupIds', 'Too many: 17: must have at most 16 items')),
  },
  {
    name: 'inst-user-data-namespace',
    mistake: 'user data from a Secret of another namespace (hostile)',
    apply: [
      instance('inst-user-data-namespace', {
        userDataSecretRef: { name: 'aws-credentials', namespace: 'crossplane-system', key: 'credentials' },
      }),
    ],
    expect: refused(unknownField('spec.forProvider.userDataSecretRef.namespace')),
  },
  {
    name: 'inst-user-data-inline',
    mistake: 'user data written inline, where a Secret reference goes',
    apply: [instance('inst-user-data-inline', { userData: '#!/bin/sh\necho hi\n' })],
    expect: refused(unknownField('spec.forProvider.userData')),
  },
  {
    name: 'inst-private-ip-octet',
    mistake: 'a private IP with an octet above 255',
    apply: [instance('inst-private-ip-octet', { privateIpAddress: '10.0.0.300' })],
    expect: refused(invalid('spec.forProvider.privateIpAddress', 'privateIpAddress must be an IPv4 address')),
  },
  {
    name: 'inst-zone-other-region',
    mistake: 'an Availability Zone of another region',
    apply: [instance('inst-zone-other-region', { availabilityZone: 'eu-west-1a' })],
    expect: refused(invalid('spec.forProvider', 'availabilityZone must be a zone of the region')),
  },
  {
    name: 'inst-edit-image',
    mistake: 'a changed AMI on an instance',
    setup: [instance('inst-edit-image')],
    apply: [instance('inst-edit-image', { imageId: 'ami-0abcdef1234567890' })],
    expect: refused(immutable('spec.forProvider.imageId')),
  },
  {
    name: 'inst-user-data-secret-missing',
    mistake: 'user data from a Secret that does not exist',
    apply: [
      instance('inst-user-data-secret-missing', { userDataSecretRef: { name: 'inst-user-data-secret-missing-data', key: 'script' } }),
    ],
    expect: synced(new RegExp(`cannot read user data: Secret ${CORPUS_NAMESPACE}/inst-user-data-secret-missing-data has no key script`)),
  },
  {
    name: 'inst-user-data-key-missing',
    mistake: 'user data from a key the Secret does not have',
    setup: [secret('inst-user-data-key-missing-data', { 'user-data': '#!/bin/sh\n' })],
    apply: [instance('inst-user-data-key-missing', { userDataSecretRef: { name: 'inst-user-data-key-missing-data', key: 'script' } })],
    expect: synced(new RegExp(`cannot read user data: Secret ${CORPUS_NAMESPACE}/inst-user-data-key-missing-data has no key script`)),
  },
  {
    name: 'inst-user-data-other-namespace',
    mistake: 'user data from a Secret that exists only in another namespace (hostile)',
    setup: [
      namespace('inst-user-data-other-namespace'),
      secret('inst-user-data-other-namespace-data', { script: '#!/bin/sh\n' }, 'inst-user-data-other-namespace'),
    ],
    apply: [
      instance('inst-user-data-other-namespace', { userDataSecretRef: { name: 'inst-user-data-other-namespace-data', key: 'script' } }),
    ],
    expect: synced(new RegExp(`cannot read user data: Secret ${CORPUS_NAMESPACE}/inst-user-data-other-namespace-data has no key script`)),
  },
  {
    name: 'inst-subnet-ref-missing',
    mistake: 'an instance in a referenced subnet that does not exist',
    apply: [instance('inst-subnet-ref-missing', { subnetIdRef: { name: 'inst-subnet-ref-missing-subnet' } })],
    expect: waitingFor(notFoundRef('Subnet', 'inst-subnet-ref-missing-subnet')),
  },
  {
    name: 'inst-key-ref-missing',
    mistake: 'an instance with a referenced key pair that does not exist',
    apply: [instance('inst-key-ref-missing', { keyNameRef: { name: 'inst-key-ref-missing-key' } })],
    expect: waitingFor(notFoundRef('KeyPair', 'inst-key-ref-missing-key')),
  },
  {
    name: 'inst-group-refs-missing',
    mistake: 'an instance with referenced security groups that do not exist',
    apply: [instance('inst-group-refs-missing', { securityGroupIdRefs: [{ name: 'inst-group-refs-missing-web' }] })],
    expect: waitingFor(notFoundRef('SecurityGroup', 'inst-group-refs-missing-web')),
  },
  {
    name: 'inst-subnet-id-missing',
    mistake: 'an instance in a raw subnet ID that does not exist',
    apply: [instance('inst-subnet-id-missing', { subnetId: MISSING_SUBNET })],
    expect: synced(new RegExp(`InvalidSubnetID\\.NotFound: The subnet ID '${MISSING_SUBNET}' does not exist`)),
  },
  {
    name: 'inst-group-id-missing',
    mistake: 'an instance in a raw security group ID that does not exist',
    apply: [instance('inst-group-id-missing', { securityGroupIds: [MISSING_GROUP] })],
    expect: synced(new RegExp(`InvalidGroup\\.NotFound: The security group '${MISSING_GROUP}' does not exist`)),
  },
];

const providerConfigCases: BadInputCase[] = [
  // What admission refuses in a config.
  {
    name: 'awspc-foreign-secret',
    mistake: 'a ProviderConfig that reads the credentials Secret of another namespace (hostile)',
    apply: [
      {
        ...providerConfig('awspc-foreign-secret'),
        spec: {
          credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: 'aws-credentials', key: 'credentials' } },
        },
      },
    ],
    expect: refused(
      new RegExp(
        `a ProviderConfig may only use a Secret in its own namespace \\(${CORPUS_NAMESPACE}\\); crossplane-system is another tenant's`,
      ),
    ),
  },
  {
    name: 'awspc-environment',
    mistake: 'a namespaced ProviderConfig that takes the worker’s own AWS identity (hostile)',
    apply: [{ ...providerConfig('awspc-environment'), spec: { credentials: { source: 'Environment' } } }],
    expect: refused(/Environment, the worker’s own AWS identity, is only for ClusterProviderConfigs/),
  },
  {
    name: 'awspc-no-secret-ref',
    mistake: 'source Secret without saying which Secret',
    apply: [{ ...providerConfig('awspc-no-secret-ref'), spec: { credentials: { source: 'Secret' } } }],
    expect: refused(invalid('spec.credentials', 'secretRef is required when source is Secret')),
  },
  {
    name: 'awspc-source-file',
    mistake: 'a credentials source that does not exist',
    apply: [providerConfig('awspc-source-file', { credentials: { source: 'Filesystem' } })],
    expect: refused(unsupported('spec.credentials.source', 'Filesystem')),
  },
  {
    name: 'awspc-endpoint-no-scheme',
    mistake: 'an endpoint without http:// or https://',
    apply: [providerConfig('awspc-endpoint-no-scheme', { endpoint: { url: 'localhost:4566' } })],
    expect: refused(invalid('spec.endpoint.url', 'spec.endpoint.url in body should match')),
  },
  {
    name: 'awspc-secret-ref-no-key',
    mistake: 'a credentials Secret reference without a key',
    apply: [
      {
        ...providerConfig('awspc-secret-ref-no-key'),
        spec: { credentials: { source: 'Secret', secretRef: { namespace: CORPUS_NAMESPACE, name: 'awspc-secret-ref-no-key-aws' } } },
      },
    ],
    expect: refused(required('spec.credentials.secretRef.key')),
  },
  {
    name: 'awscpc-selector-operator',
    mistake: 'a namespaceSelector with an operator that does not exist',
    apply: [
      clusterProviderConfig('awscpc-selector-operator', {
        namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Equals', values: ['a'] }] },
      }),
    ],
    expect: refused(unsupported('spec.namespaceSelector.matchExpressions[0].operator', 'Equals')),
  },
  {
    name: 'awscpc-selector-in-no-values',
    mistake: 'a namespaceSelector "In" with no values',
    apply: [
      clusterProviderConfig('awscpc-selector-in-no-values', { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In' }] } }),
    ],
    expect: refused(/In and NotIn need values; Exists and DoesNotExist take none/),
  },
  // What only using a config shows.
  {
    name: 'awspc-missing',
    mistake: 'a VPC naming a ProviderConfig that does not exist',
    apply: [vpc('awspc-missing', {}, usingProviderConfig('awspc-missing-config'))],
    expect: synced(new RegExp(`cannot get ProviderConfig "awspc-missing-config": not found in namespace ${CORPUS_NAMESPACE}`)),
  },
  {
    name: 'awscpc-missing',
    mistake: 'a VPC naming a ClusterProviderConfig that does not exist',
    apply: [vpc('awscpc-missing', {}, usingClusterProviderConfig('awscpc-missing-config'))],
    expect: synced(/cannot get ClusterProviderConfig "awscpc-missing-config": not found/),
  },
  {
    name: 'awspc-secret-missing',
    mistake: 'a ProviderConfig whose credentials Secret does not exist',
    setup: [providerConfig('awspc-secret-missing')],
    apply: [vpc('awspc-secret-missing-vpc', {}, usingProviderConfig('awspc-secret-missing'))],
    expect: synced(
      new RegExp(
        `cannot read credentials of ProviderConfig ${CORPUS_NAMESPACE}/awspc-secret-missing: key "credentials" of Secret ${CORPUS_NAMESPACE}/awspc-secret-missing-aws not found`,
      ),
    ),
  },
  {
    name: 'awspc-secret-key-missing',
    mistake: 'a credentials Secret without the key the ProviderConfig names',
    setup: [secret('awspc-secret-key-missing-aws', { creds: credentialsFile() }), providerConfig('awspc-secret-key-missing')],
    apply: [vpc('awspc-secret-key-missing-vpc', {}, usingProviderConfig('awspc-secret-key-missing'))],
    expect: synced(new RegExp(`key "credentials" of Secret ${CORPUS_NAMESPACE}/awspc-secret-key-missing-aws not found`)),
  },
  {
    name: 'awspc-credentials-garbage',
    mistake: 'credentials that are not a credentials file',
    setup: [
      secret('awspc-credentials-garbage-aws', { credentials: 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }),
      providerConfig('awspc-credentials-garbage'),
    ],
    apply: [vpc('awspc-credentials-garbage-vpc', {}, usingProviderConfig('awspc-credentials-garbage'))],
    expect: synced(/credentials file has no aws_access_key_id and aws_secret_access_key in profile \[default\]/),
  },
  {
    name: 'awspc-credentials-no-secret-key',
    mistake: 'a credentials file with an access key ID but no secret access key',
    setup: [
      secret('awspc-credentials-no-secret-key-aws', { credentials: '[default]\naws_access_key_id = bad-input\n' }),
      providerConfig('awspc-credentials-no-secret-key'),
    ],
    apply: [vpc('awspc-credentials-no-secret-key-vpc', {}, usingProviderConfig('awspc-credentials-no-secret-key'))],
    expect: synced(/credentials file has no aws_access_key_id and aws_secret_access_key in profile \[default\]/),
  },
  {
    name: 'awspc-profile-missing',
    mistake: 'a profile the credentials file does not have',
    setup: [
      secret('awspc-profile-missing-aws', { credentials: credentialsFile('default') }),
      providerConfig('awspc-profile-missing', { profile: 'production' }),
    ],
    apply: [vpc('awspc-profile-missing-vpc', {}, usingProviderConfig('awspc-profile-missing'))],
    expect: synced(/credentials file has no aws_access_key_id and aws_secret_access_key in profile \[production\]/),
  },
  {
    name: 'awspc-endpoint-unreachable',
    mistake: 'an endpoint nothing listens on',
    setup: [
      secret('awspc-endpoint-unreachable-aws', { credentials: credentialsFile() }),
      providerConfig('awspc-endpoint-unreachable', { endpoint: { url: 'http://127.0.0.1:9' } }),
    ],
    apply: [vpc('awspc-endpoint-unreachable-vpc', {}, usingProviderConfig('awspc-endpoint-unreachable'))],
    expect: ready('False', /cannot reach EC2 in region us-east-1 at http:\/\/127\.0\.0\.1:9/, 'Unavailable'),
  },
  {
    name: 'awspc-other-namespace',
    mistake: 'a VPC naming a ProviderConfig that exists only in another namespace (hostile)',
    setup: [
      namespace('awspc-other-namespace'),
      secret('awspc-other-namespace-aws', { credentials: credentialsFile() }, 'awspc-other-namespace'),
      providerConfig('awspc-other-namespace', {}, 'awspc-other-namespace'),
    ],
    apply: [vpc('awspc-other-namespace-vpc', {}, usingProviderConfig('awspc-other-namespace'))],
    expect: synced(new RegExp(`cannot get ProviderConfig "awspc-other-namespace": not found in namespace ${CORPUS_NAMESPACE}`)),
  },
  {
    name: 'awscpc-namespace-not-selected',
    mistake: 'a ClusterProviderConfig whose namespaceSelector leaves the corpus namespace out',
    setup: [
      secret('awscpc-namespace-not-selected-aws', { credentials: credentialsFile() }),
      clusterProviderConfig('awscpc-namespace-not-selected', {
        namespaceSelector: { matchLabels: { team: 'awscpc-namespace-not-selected' } },
      }),
    ],
    apply: [vpc('awscpc-namespace-not-selected-vpc', {}, usingClusterProviderConfig('awscpc-namespace-not-selected'))],
    expect: synced(
      new RegExp(
        `ClusterProviderConfig awscpc-namespace-not-selected may not be used from namespace ${CORPUS_NAMESPACE}: the namespace's labels do not match its namespaceSelector`,
      ),
    ),
  },
  {
    name: 'awscpc-secret-missing',
    mistake: 'a ClusterProviderConfig whose credentials Secret does not exist',
    setup: [clusterProviderConfig('awscpc-secret-missing')],
    apply: [vpc('awscpc-secret-missing-vpc', {}, usingClusterProviderConfig('awscpc-secret-missing'))],
    expect: synced(
      new RegExp(
        `cannot read credentials of ClusterProviderConfig awscpc-secret-missing: key "credentials" of Secret ${CORPUS_NAMESPACE}/awscpc-secret-missing-aws not found`,
      ),
    ),
  },
  {
    name: 'awspc-ref-kind-secret',
    mistake: 'a providerConfigRef of kind Secret',
    apply: [vpc('awspc-ref-kind-secret', {}, { spec: { providerConfigRef: { kind: 'Secret', name: 'aws-credentials' } } })],
    expect: refused(unsupported('spec.providerConfigRef.kind', 'Secret')),
  },
  {
    name: 'awspc-ref-namespace',
    mistake: 'a providerConfigRef into another namespace (hostile)',
    apply: [
      vpc(
        'awspc-ref-namespace',
        {},
        { spec: { providerConfigRef: { kind: 'ProviderConfig', name: 'default', namespace: 'crossplane-system' } } },
      ),
    ],
    expect: refused(unknownField('spec.providerConfigRef.namespace')),
  },
  {
    name: 'awspc-ref-no-name',
    mistake: 'a providerConfigRef without a name',
    apply: [vpc('awspc-ref-no-name', {}, { spec: { providerConfigRef: { kind: 'ProviderConfig' } } })],
    expect: refused(required('spec.providerConfigRef.name')),
  },
];

export const awsCases: BadInputCase[] = [
  ...vpcCases,
  ...policyCases,
  ...subnetCases,
  ...gatewayCases,
  ...routeTableCases,
  ...routeCases,
  ...associationCases,
  ...securityGroupCases,
  ...ruleCases,
  ...addressCases,
  ...natCases,
  ...keyPairCases,
  ...instanceCases,
  ...providerConfigCases,
];
