import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { temporalSettingsFromEnv } from './temporal-connection';

const dir = mkdtempSync(join(tmpdir(), 'temporal-connection-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const certPath = file('client.crt', 'CLIENT CERT');
const keyPath = file('client.key', 'CLIENT KEY');
const caPath = file('ca.crt', 'SERVER CA');
// Every case names its own config file, so a temporal.toml in this machine's home is not read.
const noFile = { TEMPORAL_CONFIG_FILE: join(dir, 'absent.toml') };
const settings = (env: Record<string, string | undefined>) => temporalSettingsFromEnv({ ...noFile, ...env });

describe('temporalSettingsFromEnv', () => {
  it('connects in plain text to localhost:7233, namespace default, when nothing is set', () => {
    const temporal = settings({});
    expect(temporal).toMatchObject({ address: 'localhost:7233', namespace: 'default', tls: false, authentication: 'none' });
    expect(temporal.connectionOptions()).toEqual({ address: 'localhost:7233' });
  });

  it('turns TLS on for an API key and sends the key', () => {
    const temporal = settings({
      TEMPORAL_ADDRESS: 'my-ns.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'my-ns.a1b2c',
      TEMPORAL_API_KEY: 'secret-key',
    });
    expect(temporal).toMatchObject({ namespace: 'my-ns.a1b2c', tls: true, authentication: 'api-key' });
    expect(temporal.connectionOptions()).toEqual({ address: 'my-ns.a1b2c.tmprl.cloud:7233', apiKey: 'secret-key', tls: {} });
    // The settings are safe to log whole: the key is only in the options made for connecting.
    expect(JSON.stringify(temporal)).not.toContain('secret-key');
    expect(JSON.stringify(loadConfig('worker', { ...noFile, TEMPORAL_API_KEY: 'secret-key' }))).not.toContain('secret-key');
  });

  it('leaves TLS off for an API key when TEMPORAL_TLS is "false", as Temporal documents', () => {
    const options = settings({ TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' }).connectionOptions();
    expect(options).toEqual({ address: 'localhost:7233', apiKey: 'k', tls: false });
  });

  it('reads the client certificate, its key, the CA and the server name for mTLS', () => {
    const temporal = settings({
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: certPath,
      TEMPORAL_TLS_CLIENT_KEY_PATH: keyPath,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: caPath,
      TEMPORAL_TLS_SERVER_NAME: 'frontend.temporal',
    });
    expect(temporal).toMatchObject({ tls: true, authentication: 'client-certificate' });
    const tls = temporal.connectionOptions().tls;
    expect(tls).toEqual({
      serverNameOverride: 'frontend.temporal',
      serverRootCACertificate: Buffer.from('SERVER CA'),
      clientCertPair: { crt: Buffer.from('CLIENT CERT'), key: Buffer.from('CLIENT KEY') },
    });
  });

  it('verifies the server against a private CA with TEMPORAL_TLS=true alone or with the CA path', () => {
    expect(settings({ TEMPORAL_TLS: 'true' }).connectionOptions().tls).toEqual({});
    expect(settings({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: caPath }).connectionOptions().tls).toEqual({
      serverRootCACertificate: Buffer.from('SERVER CA'),
    });
  });

  it('refuses a client certificate without its key, and a key without its certificate, naming both variables', () => {
    for (const env of [{ TEMPORAL_TLS_CLIENT_CERT_PATH: certPath }, { TEMPORAL_TLS_CLIENT_KEY_PATH: keyPath }]) {
      expect(() => settings(env)).toThrow(/TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH/);
    }
  });

  it('refuses a client certificate with TLS turned off', () => {
    expect(() =>
      settings({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_CLIENT_CERT_PATH: certPath, TEMPORAL_TLS_CLIENT_KEY_PATH: keyPath }),
    ).toThrow(/TEMPORAL_TLS is "false"/);
  });

  it('refuses a TEMPORAL_TLS that is neither true nor false, rather than read it as false', () => {
    expect(() => settings({ TEMPORAL_TLS: 'yes' })).toThrow(/TEMPORAL_TLS must be "true" or "false"/);
  });

  it('refuses to skip host verification, which the TypeScript SDK cannot do', () => {
    expect(() => settings({ TEMPORAL_TLS: 'true', TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: 'true' })).toThrow(
      /TEMPORAL_TLS_DISABLE_HOST_VERIFICATION is not supported/,
    );
  });

  it('names the variable whose file cannot be read, when the files are read', () => {
    const temporal = settings({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'missing-ca.crt') });
    expect(() => temporal.connectionOptions()).toThrow(/cannot read TEMPORAL_TLS_SERVER_CA_CERT_PATH .*missing-ca\.crt/);
  });

  it('reads the files again on each call, so a process that reconnects picks up a renewed certificate', () => {
    const ca = file('rotating-ca.crt', 'FIRST');
    const temporal = settings({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca });
    expect(temporal.connectionOptions().tls).toEqual({ serverRootCACertificate: Buffer.from('FIRST') });
    writeFileSync(ca, 'SECOND');
    expect(temporal.connectionOptions().tls).toEqual({ serverRootCACertificate: Buffer.from('SECOND') });
  });

  it('treats an empty variable as unset, as a chart that renders unused values as "" needs', () => {
    const temporal = settings({ TEMPORAL_API_KEY: '', TEMPORAL_TLS: '', TEMPORAL_TLS_SERVER_NAME: '', TEMPORAL_ADDRESS: '' });
    expect(temporal).toMatchObject({ address: 'localhost:7233', tls: false, authentication: 'none' });
  });

  it("takes a profile from temporal.toml, the CLI's file, with the environment winning over it", () => {
    const toml = file(
      'temporal.toml',
      [
        '[profile.prod]',
        'address = "prod.example:7233"',
        'namespace = "prod"',
        '[profile.prod.tls]',
        `server_ca_cert_path = "${caPath}"`,
      ].join('\n'),
    );
    const temporal = temporalSettingsFromEnv({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'prod', TEMPORAL_NAMESPACE: 'override' });
    expect(temporal).toMatchObject({ address: 'prod.example:7233', namespace: 'override', tls: true });
  });
});

describe('loadConfig', () => {
  it('takes the Temporal address and namespace from the same reading', () => {
    const config = loadConfig('worker', { ...noFile, TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'team' });
    expect(config).toMatchObject({ temporalAddress: 'temporal:7233', temporalNamespace: 'team' });
    expect(config.temporal.connectionOptions().address).toBe('temporal:7233');
  });
});
