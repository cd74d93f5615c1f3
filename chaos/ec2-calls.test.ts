import { describe, expect, it } from 'vitest';
import { addSummaries, emptySummary } from './ec2-calls';

describe('addSummaries', () => {
  it('adds the calls counted before a moto restart to those after it', () => {
    const before = {
      ...emptySummary(),
      total: 3,
      byAction: { DeleteVpc: 2, CreateVpc: 1 },
      errors: { DependencyViolation: 1 },
      errorsByAction: { 'DeleteVpc: DependencyViolation': 1 },
      dependencyViolations: 1,
      motoSecondsByAction: { DeleteVpc: 0.5 },
    };
    const after = {
      ...emptySummary(),
      total: 2,
      byAction: { DeleteVpc: 1, DeleteSubnet: 1 },
      errors: { DependencyViolation: 1 },
      errorsByAction: { 'DeleteSubnet: DependencyViolation': 1 },
      dependencyViolations: 1,
      motoSecondsByAction: { DeleteVpc: 0.25 },
    };
    expect(addSummaries(before, after)).toEqual({
      total: 5,
      byAction: { DeleteVpc: 3, CreateVpc: 1, DeleteSubnet: 1 },
      errors: { DependencyViolation: 2 },
      errorsByAction: { 'DeleteVpc: DependencyViolation': 1, 'DeleteSubnet: DependencyViolation': 1 },
      dependencyViolations: 2,
      motoSecondsByAction: { DeleteVpc: 0.75 },
    });
    expect(addSummaries(emptySummary(), before)).toEqual(before);
  });
});
