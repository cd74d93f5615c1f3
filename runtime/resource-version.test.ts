import { describe, expect, it } from 'vitest';
import { hasSeen, latestResourceVersion } from './resource-version';

describe('resourceVersions as etcd revisions', () => {
  it.each([
    ['10', '9', true],
    ['10', '10', true],
    ['9', '10', false],
    // Compared as numbers, not strings.
    ['100', '99', true],
    ['99', '100', false],
    ['9223372036854775807', '9007199254740993', true],
  ])('a cache at %s has seen %s: %s', (applied, needed, seen) => expect(hasSeen(applied, needed)).toBe(seen));

  it.each([
    [undefined, '1'],
    ['', '1'],
    ['10', 'abc'],
    ['1e3', '5'],
    ['-1', '0'],
  ])('cannot tell whether %s has seen %s', (applied, needed) => expect(hasSeen(applied, needed)).toBeUndefined());

  it('takes the latest, skipping empty ones', () => {
    expect(latestResourceVersion()).toBeUndefined();
    expect(latestResourceVersion(undefined, '')).toBeUndefined();
    expect(latestResourceVersion('9', undefined, '100', '', '99')).toBe('100');
  });

  it('lets one that does not parse win, so the reader goes to the API server', () => {
    expect(latestResourceVersion('100', 'opaque')).toBe('opaque');
    expect(latestResourceVersion('opaque', '100')).toBe('opaque');
  });
});
