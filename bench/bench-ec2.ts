// The benchmark's own EC2 client. It signs with an access key of its own, so that moto's request
// counter never counts the benchmark's reads and writes as a control plane's calls.
import { EC2Client } from '@aws-sdk/client-ec2';

export const BENCH_REGION = 'us-east-1';

export function benchEc2Client(ec2Endpoint: string, accessKeyId: string, region = BENCH_REGION): EC2Client {
  return new EC2Client({ region, endpoint: ec2Endpoint, credentials: { accessKeyId, secretAccessKey: 'x' } });
}
