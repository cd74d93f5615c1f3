// Table tests of the key pair's pure conversions: atProvider, the name create asks for, late
// initialization, drift and the connection details observe may publish.
import { describe, expect, it } from 'vitest';
import type { KeyPairInfo } from '@aws-sdk/client-ec2';
import { differences, keyNameFor, lateInitialize, publicDetails, toAtProvider } from './convert';
import type { KeyPairParameters } from './schema';

const key: KeyPairInfo = {
  KeyPairId: 'key-1',
  KeyName: 'admin',
  KeyFingerprint: 'ab:cd',
  KeyType: 'ed25519',
  CreateTime: new Date('2026-11-22T08:00:00Z'),
  Tags: [{ Key: 'team', Value: 'ops' }],
};
const spec: KeyPairParameters = { region: 'us-east-1', tags: { team: 'ops' } };

describe('key pair conversion', () => {
  it('maps DescribeKeyPairs output to atProvider', () => {
    expect(toAtProvider(key)).toEqual({
      keyPairId: 'key-1',
      keyName: 'admin',
      keyFingerprint: 'ab:cd',
      keyType: 'ed25519',
      createTime: '2026-11-22T08:00:00.000Z',
    });
  });

  it.each<[string, Partial<KeyPairParameters>, string | undefined, string]>([
    ['the spec\u2019s name first', { keyName: 'deploy' }, 'adopted', 'deploy'],
    ['then a recorded external name', {}, 'adopted', 'adopted'],
    ['then the object\u2019s name', {}, undefined, 'my-object'],
  ])('keyNameFor: %s', (_name, change, externalName, want) => {
    expect(keyNameFor({ ...spec, ...change }, externalName, 'my-object')).toBe(want);
  });

  it('late-initializes only an empty key name', () => {
    expect(lateInitialize(spec, key)).toEqual({ keyName: 'admin' });
    expect(lateInitialize({ ...spec, keyName: 'admin' }, key)).toBeUndefined();
  });

  it('finds tag drift only', () => {
    expect(differences(key, { team: 'ops' })).toEqual([]);
    expect(differences({ ...key, Tags: [{ Key: 'rogue', Value: '1' }] }, { team: 'ops' })).toEqual([
      'tag team: want "ops"',
      'tag rogue: not in spec',
    ]);
  });

  it('publishes what names the key, skipping what EC2 left out, and never a private key', () => {
    expect(publicDetails({ ...key, KeyMaterial: 'secret' } as KeyPairInfo)).toEqual({
      keyName: 'admin',
      keyPairId: 'key-1',
      fingerprint: 'ab:cd',
    });
    expect(publicDetails({ KeyName: 'admin' })).toEqual({ keyName: 'admin' });
  });
});
