// A KindApi for table tests of the engine's generic parts (references, wake-ups), which need a
// kind's identity but none of a real kind's schema or client.
import type { KindApi } from '#core/managed-kind';

const TEST_GROUP = 'ec2.aws.chronoplane.io';

export const testKindApi = (kind: string): KindApi => ({
  group: TEST_GROUP,
  version: 'v1alpha1',
  kind,
  plural: `${kind.toLowerCase()}s`,
  singular: kind.toLowerCase(),
  shortNames: [],
  categories: [],
  description: '',
});
