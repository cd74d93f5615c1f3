// The common path of every EC2 kind's client, against a described kind whose Describe answers
// from a table: what observe, the sweep, update and delete say and which calls they make.
import type { EC2Client, Filter } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ExternalDeletion } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { UID_TAG } from '../tags';
import { Ec2KindClient, type DescribeQuery, type Ec2KindDescription } from './client-base';
import { Ec2Api, present } from './ec2-api';

interface Widget {
  WidgetId: string;
  State: 'ready' | 'deleted';
  Tags?: { Key: string; Value: string }[];
}
interface Answer {
  Widgets?: Widget[];
}
type Params = { region: string };
type WidgetResource = ManagedResource<Params, { state: string }>;

const awsError = (name: string) =>
  Object.assign(new Error(`${name} happened`), { name, $fault: 'client', $metadata: { httpStatusCode: 400 } });

/** An EC2 holding `widgets`: Describe by id fails with NotFound for an unknown one, as EC2's does. */
function widgetEc2(widgets: Widget[], { failing }: { failing?: string } = {}) {
  const queries: DescribeQuery[] = [];
  const deleted: string[] = [];
  const kind: Ec2KindDescription<Params, { state: string }, Widget, Answer> = {
    noun: 'widget',
    plural: 'widgets',
    async describe(_sdk, query) {
      queries.push(query);
      if (failing) throw awsError(failing);
      if (query.ids) {
        const found = widgets.filter((w) => query.ids.includes(w.WidgetId));
        if (found.length === 0) throw awsError('InvalidWidgetID.NotFound');
        return { Widgets: found };
      }
      return { Widgets: widgets.filter((w) => query.filters.every((f) => matches(w, f))) };
    },
    resourcesIn: (answer) => answer.Widgets,
    idOf: (widget) => widget.WidgetId,
    sweep: { filter: 'widget-id' },
    observation: (mr, widget) =>
      present(mr, { tags: widget.Tags, differences: [], readiness: 'Available', atProvider: { state: widget.State } }),
    isGone: (widget) => widget.State === 'deleted',
    connectionDetails: (widget) => ({ widgetId: widget.WidgetId }),
  };
  class WidgetClient extends Ec2KindClient<Params, { state: string }, Widget> {
    async create(): Promise<never> {
      throw new Error('not under test');
    }
    update(mr: WidgetResource) {
      return this.updateExisting(mr, async (id) => (id === 'w-drifted' ? ['set tags team'] : []));
    }
    delete(mr: WidgetResource): Promise<ExternalDeletion> {
      return this.deleteAtOnce(mr, async (_sdk, id) => {
        if (!widgets.some((w) => w.WidgetId === id)) throw awsError('InvalidWidgetID.NotFound');
        deleted.push(id);
      });
    }
    earlier(uid: string) {
      return this.findByUid(uid);
    }
  }
  return { client: new WidgetClient(new Ec2Api({} as EC2Client, { region: 'us-east-1' }), kind), queries, deleted };
}

function matches(widget: Widget, filter: Filter): boolean {
  if (filter.Name === 'widget-id') return filter.Values!.includes(widget.WidgetId);
  const tag = filter.Name!.replace(/^tag:/, '');
  return widget.Tags?.some((t) => t.Key === tag && filter.Values!.includes(t.Value)) ?? false;
}

const widget = (name?: string, uid = `uid-${name ?? 'none'}`): WidgetResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Widget',
  metadata: {
    name: 'w',
    namespace: 'default',
    uid,
    generation: 1,
    resourceVersion: '1',
    annotations: name ? { [EXTERNAL_NAME]: name } : {},
  },
  spec: { forProvider: { region: 'us-east-1' } },
});
const ABSENT = { resourceExists: false, resourceUpToDate: false };

describe('observe', () => {
  it('asks EC2 nothing when no external name is recorded', async () => {
    const { client, queries } = widgetEc2([]);
    expect(await client.observe(widget())).toEqual(ABSENT);
    expect(queries).toEqual([]);
  });

  it('describes the recorded id, with the connection details', async () => {
    const { client, queries } = widgetEc2([{ WidgetId: 'w-1', State: 'ready' }]);
    expect(await client.observe(widget('w-1'))).toEqual({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { state: 'ready' },
      connectionDetails: { widgetId: 'w-1' },
    });
    expect(queries).toEqual([{ ids: ['w-1'] }]);
  });

  it('answers absent for an id EC2 does not know, or lists as gone', async () => {
    const { client } = widgetEc2([{ WidgetId: 'w-dead', State: 'deleted' }]);
    expect(await client.observe(widget('w-1'))).toEqual(ABSENT);
    expect(await client.observe(widget('w-dead'))).toEqual(ABSENT);
  });

  it('names the resource in any other error', async () => {
    const { client } = widgetEc2([], { failing: 'UnauthorizedOperation' });
    await expect(client.observe(widget('w-1'))).rejects.toMatchObject({
      failureClass: 'NotAuthorized',
      message: expect.stringMatching(/^cannot describe widget w-1: UnauthorizedOperation/),
    });
  });
});

describe('observeMany', () => {
  it('reads every named resource in one filtered call, and answers absent for the missing and the gone', async () => {
    const { client, queries } = widgetEc2([
      { WidgetId: 'w-1', State: 'ready' },
      { WidgetId: 'w-dead', State: 'deleted' },
    ]);
    const swept = await client.observeMany([widget('w-1'), widget('w-2'), widget('w-dead'), widget()]);
    expect(queries).toEqual([{ filters: [{ Name: 'widget-id', Values: ['w-1', 'w-2', 'w-dead'] }] }]);
    expect(Object.fromEntries(swept)).toEqual({
      'uid-w-1': { resourceExists: true, resourceUpToDate: true, readiness: 'Available', atProvider: { state: 'ready' } },
      'uid-w-2': ABSENT,
      'uid-w-dead': ABSENT,
    });
  });

  it('names the kind in its error', async () => {
    const { client } = widgetEc2([], { failing: 'UnauthorizedOperation' });
    await expect(client.observeMany([widget('w-1')])).rejects.toMatchObject({
      message: expect.stringMatching(/^cannot describe widgets: /),
    });
  });
});

describe('findByUid', () => {
  it('finds what an earlier create tagged with the uid', async () => {
    const tagged = { WidgetId: 'w-1', State: 'ready' as const, Tags: [{ Key: UID_TAG, Value: 'uid-a' }] };
    const { client, queries } = widgetEc2([tagged]);
    expect(await client.earlier('uid-a')).toEqual(tagged);
    expect(await client.earlier('uid-b')).toBeUndefined();
    expect(queries[0]).toEqual({ filters: [{ Name: `tag:${UID_TAG}`, Values: ['uid-a'] }] });
  });

  it('says what it looked for when EC2 fails', async () => {
    const { client } = widgetEc2([], { failing: 'UnauthorizedOperation' });
    await expect(client.earlier('uid-a')).rejects.toMatchObject({ message: expect.stringMatching(/^cannot look for an earlier widget: /) });
  });
});

describe('update', () => {
  it('sums up what it did, or that nothing was needed, or that the resource is gone', async () => {
    const { client } = widgetEc2([
      { WidgetId: 'w-1', State: 'ready' },
      { WidgetId: 'w-drifted', State: 'ready' },
    ]);
    expect(await client.update(widget('w-drifted'))).toBe('updated widget w-drifted: set tags team');
    expect(await client.update(widget('w-1'))).toBe('updated widget w-1: already up to date');
    expect(await client.update(widget('w-2'))).toBe('widget w-2 is gone; nothing to update');
  });
});

describe('deleteAtOnce', () => {
  it('deletes, takes an already gone resource as deleted, and says so; the resource is gone either way', async () => {
    const { client, deleted } = widgetEc2([{ WidgetId: 'w-1', State: 'ready' }]);
    expect(await client.delete(widget('w-1'))).toEqual({ summary: 'deleted widget w-1', gone: true });
    expect(await client.delete(widget('w-2'))).toEqual({ summary: 'widget w-2 was already gone', gone: true });
    expect(await client.delete(widget())).toEqual({ summary: 'no widget was recorded; nothing to delete', gone: true });
    expect(deleted).toEqual(['w-1']);
  });
});
