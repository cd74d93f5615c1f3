import { describe, expect, it } from 'vitest';
import { credentialsFromIni } from './credentials';

describe('credentialsFromIni', () => {
  it('reads the requested profile', () => {
    const file =
      '[default]\naws_access_key_id = AKIDEFAULT\naws_secret_access_key = s1\n[ops]\naws_access_key_id=AKIOPS\naws_secret_access_key=s2\n';
    expect(credentialsFromIni(file, 'ops')).toEqual({ accessKeyId: 'AKIOPS', secretAccessKey: 's2', sessionToken: undefined });
  });
  it('fails without echoing the file', () => {
    const file = '[default]\naws_access_key_id = AKISECRETISH\n';
    expect(() => credentialsFromIni(file, 'default')).toThrow(/no aws_access_key_id and aws_secret_access_key in profile \[default\]/);
    try {
      credentialsFromIni(file, 'default');
    } catch (error) {
      expect(String(error)).not.toContain('AKISECRETISH');
    }
  });
});
