// Configuration shared by the worker and the watcher, read from the environment once at start.
export interface ChronoplaneConfig {
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  /** Port for Prometheus metrics; 0 turns the endpoint off. */
  metricsPort: number;
  logLevel: string;
}

/** `component` picks the metrics port variable, so a worker and a watcher on one host do not collide. */
export function loadConfig(component: 'worker' | 'watcher', env: NodeJS.ProcessEnv = process.env): ChronoplaneConfig {
  const metrics =
    component === 'worker'
      ? { variable: 'CHRONOPLANE_WORKER_METRICS_PORT', port: 9465 }
      : { variable: 'CHRONOPLANE_WATCHER_METRICS_PORT', port: 9464 };
  return {
    temporalAddress: env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.CHRONOPLANE_TASK_QUEUE ?? 'chronoplane',
    metricsPort: numberFrom(env[metrics.variable], metrics.port),
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
