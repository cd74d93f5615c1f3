// The KeyPair API: forProvider mirrors EC2's CreateKeyPair and ImportKeyPair inputs, atProvider
// mirrors DescribeKeyPairs output, with EC2's field names in camelCase (seed 001). The private
// key is never in either: EC2 returns it once, from CreateKeyPair, and it goes to the
// connection Secret named by spec.writeConnectionSecretToRef.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { ec2KindApi, Region, Tags } from '../fields';

export const keyPairApi = ec2KindApi({
  kind: 'KeyPair',
  plural: 'keypairs',
  singular: 'keypair',
  shortNames: ['ec2keypair'],
  description:
    'An AWS EC2 key pair, created (its private key goes to the connection Secret) or imported from a public key, and kept in sync by Chronoplane.',
});

export const KeyPairParameters = Doc('The desired state of the key pair, in EC2\u2019s terms.', {
  region: Region('key pair'),
  keyName: Type.Optional(
    immutable(
      withRules(
        DocString(
          'The name of the key pair, unique within the region: up to 255 ASCII characters. Set at creation; defaults to this object\u2019s name, and the spec adopts it. It is the key pair\u2019s external name.',
          { minLength: 1, maxLength: 255 },
        ),
        // EC2 takes ASCII only; a look-alike letter or an invisible one would name a key nobody can type.
        { rule: "self.matches('^[ -~]+$')", message: 'keyName may contain only printable ASCII characters' },
      ),
      'keyName',
    ),
  ),
  keyType: Type.Optional(
    immutable(
      Type.Union([Type.Literal('rsa'), Type.Literal('ed25519')], {
        default: 'rsa',
        description: 'The type of key EC2 creates: rsa or ed25519. Ignored with publicKeyMaterial, whose key has its own type.',
      }),
      'keyType',
    ),
  ),
  publicKeyMaterial: Type.Optional(
    immutable(
      withRules(
        DocString(
          'An OpenSSH public key (ssh-rsa or ssh-ed25519) to import instead of letting EC2 create the key pair. The private key then stays with you, and the connection Secret holds none.',
          { minLength: 1, maxLength: 16384 },
        ),
        // The two types EC2 imports, in the one-line form ssh-keygen writes; a private key pasted
        // here by mistake is refused before it is stored anywhere else.
        {
          rule: "self.matches(r'^(ssh-rsa|ssh-ed25519) [A-Za-z0-9+/]+={0,3}( [^\\n]*)?\\n?$')",
          message:
            'publicKeyMaterial must be an OpenSSH public key: ssh-rsa or ssh-ed25519, its base64 key, and an optional comment, on one line',
        },
      ),
      'publicKeyMaterial',
    ),
  ),
  tags: Tags('key pair'),
});
export type KeyPairParameters = Static<typeof KeyPairParameters>;

export const KeyPairObservation = Doc('The key pair as EC2 last reported it.', {
  keyPairId: Type.Optional(DocString('The ID of the key pair.')),
  keyName: Type.Optional(DocString('The name of the key pair.')),
  keyFingerprint: Type.Optional(
    DocString(
      'The fingerprint of the key: for a key EC2 created, the SHA-1 digest of the DER-encoded private key (RSA) or the SHA-256 digest of the OpenSSH public key (ED25519); for an imported key, the MD5 or SHA-256 public key fingerprint.',
    ),
  ),
  keyType: Type.Optional(DocString('rsa or ed25519.')),
  createTime: Type.Optional(DocString('When the key pair was created or imported, in RFC 3339 form.')),
});
export type KeyPairObservation = Static<typeof KeyPairObservation>;
