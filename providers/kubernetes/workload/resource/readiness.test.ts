// A CustomResourceDefinition is Submitted only once its kind is served; anything else at once.
import { describe, expect, it } from 'vitest';
import { submittedReadiness } from './readiness';

const crd = (conditions?: object[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  ...(conditions ? { status: { conditions } } : {}),
});

describe('submittedReadiness', () => {
  it('takes any other object as ready once applied', () => {
    expect(submittedReadiness({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } })).toEqual({ readiness: 'Available' });
    // A kind of the same name in another group is not a CRD.
    expect(submittedReadiness({ apiVersion: 'example.com/v1', kind: 'CustomResourceDefinition' })).toEqual({ readiness: 'Available' });
  });

  it('waits for a CRD to be Established, and says why', () => {
    expect(submittedReadiness(crd())).toEqual({
      readiness: 'Creating',
      readinessMessage: 'waiting for the CustomResourceDefinition to be Established',
    });
    expect(submittedReadiness(crd([{ type: 'Established', status: 'False' }])).readiness).toBe('Creating');
    expect(
      submittedReadiness(
        crd([
          { type: 'NamesAccepted', status: 'True' },
          { type: 'Established', status: 'True' },
        ]),
      ),
    ).toEqual({
      readiness: 'Available',
    });
  });

  it('passes on the API server’s word when it refuses the names', () => {
    const refused = submittedReadiness(crd([{ type: 'NamesAccepted', status: 'False', message: '"widgets" is already in use' }]));
    expect(refused).toEqual({
      readiness: 'Creating',
      readinessMessage: 'the CustomResourceDefinition\'s names are not accepted: "widgets" is already in use',
    });
  });
});
