// The Temporal server settings Chronoplane asks for, in every Temporal the stack starts (the dev
// server, Temporal's own server) and in docker-compose.yml, whose test compares it with these.

const TEMPORAL_DYNAMIC_CONFIG = {
  // A regular activity a workflow task schedules (an EC2 create or update; deletes opt out,
  // workflows/steps.ts) comes back in the task's own answer when the worker has a free slot,
  // instead of through a task-queue poll: one matching round trip fewer per call. Off by default
  // in server 1.29.
  'system.enableActivityEagerExecution': true,
} as const;

/** `--dynamic-config-value key=value` pairs, as `temporal server start-dev` takes them. */
export const dynamicConfigFlags = (): string[] =>
  Object.entries(TEMPORAL_DYNAMIC_CONFIG).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);

/** The dynamic config file Temporal's server reads (`dynamicConfigClient.filepath`). */
export const dynamicConfigFile = (): Record<string, { value: unknown }[]> =>
  Object.fromEntries(Object.entries(TEMPORAL_DYNAMIC_CONFIG).map(([key, value]) => [key, [{ value }]]));
