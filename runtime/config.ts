// Configuration shared by the worker and the watcher, read from the environment once at start.
export interface ChronoplaneConfig {
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  /** Port for Prometheus metrics; 0 turns the endpoint off. */
  metricsPort: number;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaultMetricsPort = 0): ChronoplaneConfig {
  return {
    temporalAddress: env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.CHRONOPLANE_TASK_QUEUE ?? 'chronoplane',
    metricsPort: numberFrom(env.CHRONOPLANE_METRICS_PORT, defaultMetricsPort),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}

export function numberFrom(value: string | undefined, fallback: number): number;
export function numberFrom(value: string | undefined, fallback?: undefined): number | undefined;
export function numberFrom(value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`expected a non-negative number, got "${value}"`);
  return n;
}
