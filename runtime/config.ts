// Configuration shared by the worker and the watcher, read from the environment once at start.
import { temporalSettingsFromEnv, type TemporalSettings } from './temporal-connection';

interface ChronoplaneConfig {
  /** How to reach Temporal; runtime/temporal-connection.ts reads it. */
  temporal: TemporalSettings;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  /** Port for Prometheus metrics; 0 turns the endpoint off. */
  metricsPort: number;
  /**
   * Where the metrics endpoint listens. Loopback by default, so a process on a shared host
   * shows nothing to its neighbours; in a pod it must be 0.0.0.0 for the metrics Service.
   */
  metricsBindAddress: string;
  logLevel: string;
}

/** `component` picks the metrics port variable, so a worker and a watcher on one host do not collide. */
export function loadConfig(component: 'worker' | 'watcher', env: NodeJS.ProcessEnv = process.env): ChronoplaneConfig {
  const metrics =
    component === 'worker'
      ? { variable: 'CHRONOPLANE_WORKER_METRICS_PORT', port: 9465 }
      : { variable: 'CHRONOPLANE_WATCHER_METRICS_PORT', port: 9464 };
  const temporal = temporalSettingsFromEnv(env);
  return {
    temporal,
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    taskQueue: env.CHRONOPLANE_TASK_QUEUE ?? 'chronoplane',
    metricsPort: numberFrom(env[metrics.variable], metrics.port),
    metricsBindAddress: env.CHRONOPLANE_METRICS_BIND_ADDRESS || '127.0.0.1',
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
