import { describe, expect, it } from 'vitest';
import { readinessOf } from './readiness';

const withConditions = (...conditions: { type: string; status: string }[]) => ({ status: { conditions } });

describe('readinessOf', () => {
  it('is Available once the object exists by default (SuccessfulCreate)', () => {
    expect(readinessOf(undefined, {})).toEqual({ readiness: 'Available' });
    expect(readinessOf({ policy: 'SuccessfulCreate' }, withConditions({ type: 'Ready', status: 'False' }))).toEqual({
      readiness: 'Available',
    });
  });

  it('follows the object’s Ready condition with DeriveFromObject', () => {
    expect(readinessOf({ policy: 'DeriveFromObject' }, withConditions({ type: 'Ready', status: 'True' })).readiness).toBe('Available');
    expect(readinessOf({ policy: 'DeriveFromObject' }, withConditions({ type: 'Ready', status: 'False' }))).toEqual({
      readiness: 'Unavailable',
      readinessMessage: "the object's Ready condition is False",
    });
    expect(readinessOf({ policy: 'DeriveFromObject' }, {}).readinessMessage).toBe("the object's Ready condition is not set");
  });

  it('needs at least one condition, all True, with AllTrue', () => {
    const policy = { policy: 'AllTrue' as const };
    expect(readinessOf(policy, {}).readiness).toBe('Unavailable');
    expect(readinessOf(policy, withConditions({ type: 'Available', status: 'True' })).readiness).toBe('Available');
    expect(
      readinessOf(policy, withConditions({ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'Unknown' }))
        .readinessMessage,
    ).toBe("not all of the object's conditions are True: Progressing=Unknown");
  });

  describe('DeriveFromCelQuery', () => {
    const deployment = {
      kind: 'Deployment',
      spec: { replicas: 3 },
      status: { readyReplicas: 3, conditions: [{ type: 'Available', status: 'True' }] },
    };
    const query = (celQuery: string) => readinessOf({ policy: 'DeriveFromCelQuery', celQuery }, deployment);

    it('is Available while the query over `object` holds, numbers compared as CEL compares them', () => {
      expect(query('object.status.readyReplicas == object.spec.replicas').readiness).toBe('Available');
      expect(query('object.status.readyReplicas >= 3').readiness).toBe('Available');
      expect(query("object.status.conditions.exists(c, c.type == 'Available' && c.status == 'True')").readiness).toBe('Available');
      expect(query('object.status.readyReplicas > 3')).toEqual({
        readiness: 'Unavailable',
        readinessMessage: 'readiness.celQuery is false: object.status.readyReplicas > 3',
      });
    });

    it('says why when the query cannot compile, cannot be evaluated or is not a bool', () => {
      expect(query('object.status.readyReplicas ==').readinessMessage).toMatch(/^readiness.celQuery does not compile: /);
      expect(query('object.status.missing == 1').readinessMessage).toMatch(/^readiness.celQuery cannot be evaluated: .*missing/);
      expect(query('object.spec.replicas').readinessMessage).toBe('readiness.celQuery must return a bool, but returned 3');
      expect(query('').readinessMessage).toBe('readiness.celQuery must be set when the policy is DeriveFromCelQuery');
    });

    it('marks a query that is wrong whatever the object holds as a spec error, and one that waits on the object as not', () => {
      const spec = (celQuery: string) => query(celQuery).invalidSpec;
      expect(query('object.status.(')).toEqual({
        readiness: 'Unavailable',
        readinessMessage: 'readiness.celQuery does not compile: Expected IDENTIFIER, got LPAREN',
        invalidSpec: true,
      });
      // Upstream's environment has `object` only.
      expect(query('self.status.readyReplicas == 3').readinessMessage).toBe('readiness.celQuery does not compile: Unknown variable: self');
      expect(query("1 + 'a' == 2").readinessMessage).toMatch(/^readiness.celQuery does not compile: no such overload/);
      expect(query('1 + 2').readinessMessage).toBe('readiness.celQuery does not compile: it returns int, not bool');
      expect(spec('object.spec.replicas')).toBe(true);
      expect(spec('object.status.missing == 1')).toBeUndefined();
      expect(spec('object.status.readyReplicas > 3')).toBeUndefined();
      expect(spec('object.status.readyReplicas == 3')).toBeUndefined();
    });

    it('lets a query guard a field that may be missing with has()', () => {
      expect(query('has(object.status.missing) && object.status.missing == 1').readiness).toBe('Unavailable');
    });
  });
});
