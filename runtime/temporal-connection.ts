// Where and how the worker and the watcher reach Temporal, read the way Temporal's own CLI and
// SDKs read it ("environment configuration"): TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
// TEMPORAL_API_KEY, TEMPORAL_TLS and TEMPORAL_TLS_* from the environment, over the profile of a
// temporal.toml (TEMPORAL_CONFIG_FILE, TEMPORAL_PROFILE), so one set of settings serves
// `temporal workflow list` and Chronoplane alike. The SDK's envconfig package does the reading;
// this module adds the checks it leaves out, so a half-made setting fails at start with the
// names of the variables to fix instead of as a TLS handshake error later.
import { loadClientConfigProfile, type ClientConfigProfile, type ConfigDataSource } from '@temporalio/envconfig';
import type { TLSConfig } from '@temporalio/client';
import { readFileSync } from 'node:fs';

const DEFAULT_TEMPORAL_ADDRESS = 'localhost:7233';
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

/** The part both `NativeConnection.connect` (worker) and `Connection.connect` (client) take. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export type TemporalAuthentication = 'none' | 'api-key' | 'client-certificate';

export interface TemporalSettings {
  address: string;
  namespace: string;
  tls: boolean;
  authentication: TemporalAuthentication;
  /**
   * Reads the certificate files named each time it is called. The SDKs take TLS material only
   * when a connection is made, so a rotated certificate (a renewed Secret, say) takes effect when the process restarts,
   * which is how the chart rolls it out. An API key can change at runtime
   * (`Connection.setApiKey`, `NativeConnection.setApiKey`); nothing here does that yet, so a new
   * key also takes a restart.
   */
  connectionOptions(): TemporalConnectionOptions;
}

type Environment = Record<string, string | undefined>;

const variable = {
  clientCert: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  clientKey: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
  serverCaCert: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  disableHostVerification: 'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
} as const;

/** Throws, naming the variables, on settings that cannot make a working connection. */
export function temporalSettingsFromEnv(env: Environment = process.env): TemporalSettings {
  refuseHostVerificationOff(env);
  refuseUnclearTlsSwitch(env);
  const profile = loadClientConfigProfile({ overrideEnvVars: definedOnly(env) });
  const tls = profile.tls;
  if ((tls?.clientCert === undefined) !== (tls?.clientKey === undefined)) {
    throw new Error(
      `${variable.clientCert} and ${variable.clientKey} (or their _DATA forms) go together: mTLS needs both the client certificate and its key, and only one is set`,
    );
  }
  const tlsOn = tls?.disabled === true ? false : tls !== undefined || profile.apiKey !== undefined;
  if (tls?.disabled === true && tls.clientCert !== undefined) {
    throw new Error(`TEMPORAL_TLS is "false" but ${variable.clientCert} is set: a client certificate needs TLS`);
  }
  return {
    address: profile.address ?? DEFAULT_TEMPORAL_ADDRESS,
    namespace: profile.namespace ?? DEFAULT_TEMPORAL_NAMESPACE,
    tls: tlsOn,
    authentication: authenticationOf(profile),
    connectionOptions: () => connectionOptionsOf(profile, tlsOn),
  };
}

function connectionOptionsOf(profile: ClientConfigProfile, tlsOn: boolean): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address: profile.address ?? DEFAULT_TEMPORAL_ADDRESS };
  if (profile.apiKey !== undefined) options.apiKey = profile.apiKey;
  if (profile.grpcMeta !== undefined) options.metadata = profile.grpcMeta;
  if (!tlsOn) {
    // TEMPORAL_TLS=false wins even over an API key, as in Temporal's SDKs and CLI: a local proxy
    // may terminate TLS for the process.
    if (profile.tls?.disabled === true) options.tls = false;
    return options;
  }
  const tls = profile.tls ?? {};
  const clientCert = read(tls.clientCert, variable.clientCert);
  const clientKey = read(tls.clientKey, variable.clientKey);
  const serverRootCACertificate = read(tls.serverCACert, variable.serverCaCert);
  options.tls = {
    ...(tls.serverName !== undefined ? { serverNameOverride: tls.serverName } : {}),
    ...(serverRootCACertificate !== undefined ? { serverRootCACertificate } : {}),
    ...(clientCert !== undefined && clientKey !== undefined ? { clientCertPair: { crt: clientCert, key: clientKey } } : {}),
  };
  return options;
}

function authenticationOf(profile: ClientConfigProfile): TemporalAuthentication {
  if (profile.apiKey !== undefined) return 'api-key';
  if (profile.tls?.clientCert !== undefined && profile.tls.disabled !== true) return 'client-certificate';
  return 'none';
}

function read(source: ConfigDataSource | undefined, name: string): Uint8Array | undefined {
  if (source === undefined) return undefined;
  if (!('path' in source)) return typeof source.data === 'string' ? Buffer.from(source.data) : source.data;
  try {
    return readFileSync(source.path);
  } catch (error) {
    throw new Error(`cannot read ${name} (${source.path}): ${(error as Error).message}`);
  }
}

// The CLI and the Go SDK can skip verifying the server's certificate; the TypeScript SDK cannot,
// so rather than verify anyway and fail at the handshake, say so at start.
function refuseHostVerificationOff(env: Environment): void {
  const value = env[variable.disableHostVerification];
  if (value === 'true' || value === '1') {
    throw new Error(
      `${variable.disableHostVerification} is not supported by the TypeScript SDK: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed the server's certificate, and TEMPORAL_TLS_SERVER_NAME if its name differs from the address`,
    );
  }
}

// The SDK reads anything but "true" or "1" as "false", so a typo would quietly turn TLS off.
function refuseUnclearTlsSwitch(env: Environment): void {
  const value = env.TEMPORAL_TLS;
  if (value !== undefined && value !== '' && !['true', 'false', '1', '0'].includes(value)) {
    throw new Error(`TEMPORAL_TLS must be "true" or "false", not "${value}"`);
  }
}

// An empty variable counts as unset, as everywhere else in Chronoplane's configuration (a chart
// that renders `value: ""` for an unused setting must not turn TLS on).
function definedOnly(env: Environment): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}
