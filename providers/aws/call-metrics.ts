// Counts every HTTP attempt the EC2 client makes, by operation and outcome, on the worker's
// Prometheus endpoint (chronoplane_ec2_api_calls): what AWS throttles and what the dashboard's
// "EC2 calls" panel shows. Counted through the activity's metric meter, so each count also
// carries the activity that made it (observe, createExternal, sweep…); calls made outside an
// activity (a benchmark's own client, a unit test) are not counted.
import { Context } from '@temporalio/activity';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { DeserializeHandler, DeserializeHandlerArguments, HandlerExecutionContext, MetadataBearer } from '@aws-sdk/types';

export const EC2_API_CALLS = 'chronoplane_ec2_api_calls';

/** Adds the counting step to a client's middleware stack; once per client. */
export function countEc2Calls(client: EC2Client): void {
  client.middlewareStack.add(
    // The deserialize step runs below the SDK's retry step: once per attempt, as AWS counts them.
    // High priority puts it outside the command's own deserializer, so it sees the error that
    // deserializer makes of an error response.
    <Output extends MetadataBearer>(next: DeserializeHandler<object, Output>, context: HandlerExecutionContext) =>
      async (args: DeserializeHandlerArguments<object>) => {
        try {
          const output = await next(args);
          record(context.commandName, 'ok');
          return output;
        } catch (error) {
          // EC2's error code (InvalidVpcID.NotFound, RequestLimitExceeded…) or the network error's name.
          record(context.commandName, error instanceof Error ? error.name : 'Error');
          throw error;
        }
      },
    { step: 'deserialize', priority: 'high', name: 'chronoplaneCallCounter' },
  );
}

function record(commandName: string | undefined, outcome: string): void {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return; // not in an activity
  }
  context.metricMeter
    .createCounter(EC2_API_CALLS, '1', 'EC2 API calls by operation and outcome, each HTTP attempt counted')
    .add(1, { operation: (commandName ?? 'unknown').replace(/Command$/, ''), outcome });
}
