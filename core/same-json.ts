// Equality of JSON documents as the API server stores them, for comparing observed states.
import equal from 'fast-deep-equal';

/**
 * Equal as JSON documents. The API server returns objects with their keys sorted and without
 * undefined fields, so neither key order nor undefined may count as a difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return equal(normalize(a), normalize(b));
}

const normalize = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
