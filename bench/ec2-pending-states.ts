// Rewrites EC2 answers (Query API XML, as moto sends them) so that a resource that EC2 would
// still be creating shows its pending state: moto makes NAT gateways available and instances
// running at once. Pure; bench/ec2-latency-proxy.ts decides which ids are still pending.
//
// A resource in an answer is an element with both its id and its state as direct children
// (`<item>` of natGatewaySet or instancesSet, or CreateNatGateway's `<natGateway>`); nested
// elements such as a gateway's addresses or an instance's network interfaces are not confused
// with it, since their own children are theirs.

interface PendingShape {
  /** The create's Action: its answer names the new resources. */
  createAction: string;
  idTag: string;
  stateTag: string;
  /** The state element's content once EC2 is done creating. */
  isSettled(content: string): boolean;
  /** The whole state element as EC2 writes it while creating. */
  pendingElement: string;
}

export const NAT_GATEWAY_SHAPE: PendingShape = {
  createAction: 'CreateNatGateway',
  idTag: 'natGatewayId',
  stateTag: 'state',
  isSettled: (content) => content === 'available',
  pendingElement: '<state>pending</state>',
};

export const INSTANCE_SHAPE: PendingShape = {
  createAction: 'RunInstances',
  idTag: 'instanceId',
  stateTag: 'instanceState',
  isSettled: (content) => content.includes('<name>running</name>'),
  pendingElement: '<instanceState><code>0</code><name>pending</name></instanceState>',
};

export const PENDING_SHAPES: readonly PendingShape[] = [NAT_GATEWAY_SHAPE, INSTANCE_SHAPE];

interface ResourceState {
  id: string;
  /** The state element's content. */
  content: string;
  /** Offsets of the whole state element, end exclusive. */
  start: number;
  end: number;
}

interface Frame {
  name: string;
  start: number;
  contentStart: number;
  id?: string;
  state?: Omit<ResourceState, 'id'>;
}

const TAG = /<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>/g;

/** Every element of `xml` with an `idTag` child and a `stateTag` child; none if `xml` is not well nested. */
export function resourceStates(xml: string, shape: Pick<PendingShape, 'idTag' | 'stateTag'>): ResourceState[] {
  const found: ResourceState[] = [];
  const stack: Frame[] = [];
  for (const match of xml.matchAll(TAG)) {
    const [whole, closing, name, selfClosing] = match;
    const at = match.index;
    if (selfClosing) continue;
    if (!closing) {
      stack.push({ name: name!, start: at, contentStart: at + whole.length });
      continue;
    }
    const frame = stack.pop();
    if (!frame || frame.name !== name) return [];
    const parent = stack.at(-1);
    const content = xml.slice(frame.contentStart, at);
    if (parent && name === shape.idTag) parent.id = content;
    if (parent && name === shape.stateTag) parent.state = { content, start: frame.start, end: at + whole.length };
    if (frame.id !== undefined && frame.state) found.push({ id: frame.id, ...frame.state });
  }
  return found;
}

/** `xml` with each settled resource whose id `isPending` says is pending shown in its pending state. */
export function showPending(xml: string, shape: PendingShape, isPending: (id: string) => boolean): string {
  const rewrites = resourceStates(xml, shape).filter((r) => isPending(r.id) && shape.isSettled(r.content));
  let out = xml;
  // From the end, so that earlier offsets stay valid.
  for (const { start, end } of rewrites.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + shape.pendingElement + out.slice(end);
  }
  return out;
}
