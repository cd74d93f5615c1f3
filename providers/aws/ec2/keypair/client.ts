// Wires EC2 SDK calls to the ExternalClient verbs for key pairs. Decisions live in convert.ts;
// observe, the sweep, describe and the uid lookup are the common path's (client-base.ts).
//
// The external name is the key name, as in provider-aws: it is what RunInstances, the console
// and ssh users call the key, an Instance's keyNameRef copies it as it is, and EC2 accepts it
// everywhere (the key pair id is only an alias, and moto describes and deletes by name alone).
import {
  CreateKeyPairCommand,
  DeleteKeyPairCommand,
  DescribeKeyPairsCommand,
  ImportKeyPairCommand,
  type DescribeKeyPairsCommandOutput,
  type KeyPairInfo,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { ExternalCreation, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ec2Connector, present, type Ec2Api } from '../ec2-api';
import { differences, keyNameFor, lateInitialize, publicDetails, toAtProvider } from './convert';
import { keyPairApi, type KeyPairObservation, type KeyPairParameters } from './schema';

type KeyPairResource = ManagedResource<KeyPairParameters, KeyPairObservation>;

/** DescribeKeyPairs has no pages: one call a sweep of 200. */
const keyPairs: Ec2KindDescription<KeyPairParameters, KeyPairObservation, KeyPairInfo, DescribeKeyPairsCommandOutput> = {
  noun: 'key pair',
  plural: 'key pairs',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeKeyPairsCommand({ KeyNames: ids, Filters: filters })),
  resourcesIn: (answer) => answer.KeyPairs,
  idOf: (key) => key.KeyName,
  sweep: { filter: 'key-name' },
  observation,
  // Published on every pass, so an imported or adopted key pair's Secret names it too; the
  // private key only ever comes from create.
  connectionDetails: publicDetails,
};

export const keyPairConnector = ec2Connector<KeyPairParameters, KeyPairObservation>((api) => new KeyPairExternalClient(api));

export class KeyPairExternalClient extends Ec2KindClient<KeyPairParameters, KeyPairObservation, KeyPairInfo> {
  constructor(ec2: Ec2Api) {
    super(ec2, keyPairs);
  }

  /**
   * EC2 returns a created key pair's private key once, in this call's answer, and the engine
   * writes it to the connection Secret before it records the external name. So a key pair
   * found by our uid tag while no external name is recorded was made by an attempt whose
   * worker died before that write: its private key is lost for good, and a key pair nobody can
   * use is worse than none. It is deleted and created again, so this attempt returns a fresh
   * private key. An imported key pair (publicKeyMaterial) has no private key to lose, and is
   * simply adopted; so is one found after a name was recorded, whose Secret was written.
   */
  async create(mr: KeyPairResource): Promise<ExternalCreation<KeyPairParameters, KeyPairObservation>> {
    const p = mr.spec.forProvider;
    const recorded = externalNameOf(mr);
    const earlier = await this.findByUid(mr.metadata.uid);
    let replaced = '';
    if (earlier?.KeyName) {
      if (p.publicKeyMaterial || recorded) {
        return {
          externalName: earlier.KeyName,
          summary: `found key pair ${earlier.KeyName} (${earlier.KeyPairId}) made by an earlier attempt`,
          connectionDetails: publicDetails(earlier),
        };
      }
      await this.ec2.call(`cannot delete key pair ${earlier.KeyName}, whose private key an earlier attempt lost`, (sdk) =>
        sdk.send(new DeleteKeyPairCommand({ KeyName: earlier.KeyName })),
      );
      replaced = `; replaced ${earlier.KeyPairId}, made by an earlier attempt whose private key was lost`;
    }
    const keyName = keyNameFor(p, recorded, mr.metadata.name);
    const TagSpecifications = [{ ResourceType: 'key-pair' as const, Tags: mapToTags(desiredTags(keyPairApi, mr)) }];
    if (p.publicKeyMaterial) {
      const material = p.publicKeyMaterial;
      const imported = await this.ec2.callUnless(`cannot import key pair ${keyName}`, 'InvalidKeyPair.Duplicate', (sdk) =>
        sdk.send(new ImportKeyPairCommand({ KeyName: keyName, PublicKeyMaterial: Buffer.from(material, 'utf8'), TagSpecifications })),
      );
      if (!imported) throw nameTaken(keyName, p.region);
      return {
        externalName: keyName,
        summary: `imported key pair ${keyName} (${imported.KeyPairId})`,
        connectionDetails: publicDetails(imported),
      };
    }
    const created = await this.ec2.callUnless(`cannot create key pair ${keyName}`, 'InvalidKeyPair.Duplicate', (sdk) =>
      sdk.send(new CreateKeyPairCommand({ KeyName: keyName, KeyType: p.keyType ?? 'rsa', TagSpecifications })),
    );
    if (!created) throw nameTaken(keyName, p.region);
    return {
      externalName: keyName,
      summary: `created ${p.keyType ?? 'rsa'} key pair ${keyName} (${created.KeyPairId})${replaced}`,
      // Only here, and only to the engine, which writes it to the Secret and nowhere else.
      connectionDetails: { ...publicDetails(created), ...(created.KeyMaterial ? { privateKey: created.KeyMaterial } : {}) },
    };
  }

  async update(mr: KeyPairResource): Promise<string> {
    const keyName = externalNameOf(mr)!;
    const key = await this.describe(keyName);
    if (!key?.KeyPairId) return `key pair ${keyName} is gone; nothing to update`;
    const done = await this.ec2.syncTags(key.KeyPairId, desiredTags(keyPairApi, mr), key.Tags);
    return `updated key pair ${keyName}: ${done.join('; ') || 'already up to date'}`;
  }

  /** DeleteKeyPair succeeds for a name that does not exist, so whether it did is asked first. */
  async delete(mr: KeyPairResource): Promise<string> {
    const keyName = externalNameOf(mr);
    if (!keyName) return 'no key pair was recorded; nothing to delete';
    if (!(await this.describe(keyName))) return `key pair ${keyName} was already gone`;
    await this.ec2.call(`cannot delete key pair ${keyName}`, (sdk) => sdk.send(new DeleteKeyPairCommand({ KeyName: keyName })));
    return `deleted key pair ${keyName}`;
  }
}

/** The name belongs to a key pair this object did not make (the uid lookup found none). */
const nameTaken = (keyName: string, region: string) =>
  new ClassifiedError(
    'InvalidInput',
    `cannot create key pair ${keyName}: a key pair of that name already exists in ${region}; choose another keyName, or name it in crossplane.io/external-name to adopt it`,
  );

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: KeyPairResource, key: KeyPairInfo): ExternalObservation<KeyPairParameters, KeyPairObservation> {
  return present(mr, {
    tags: key.Tags,
    differences: differences(key, desiredTags(keyPairApi, mr)),
    // A key pair has no lifecycle states: once EC2 lists it, instances can use it.
    readiness: 'Available',
    atProvider: toAtProvider(key),
    lateInitialized: lateInitialize(mr.spec.forProvider, key),
  });
}
