// What an application has to do about its children, from its templates and the children as they
// are: which to create, update or delete now, which names it refuses (another's or nobody's
// resource), and what waits for something else first. observe asks whether anything is to be
// done now; update does it. Anything that waits is woken by the change it waits for (a child's
// status, a child gone), so "waiting" is up to date: nothing to do until then. Pure.
import {
  conflictMessage,
  controllerOf,
  differences,
  isControlledBy,
  isDeleting,
  isPredecessor,
  isSubmitted,
  newChild,
  sameIdentity,
  updatedChild,
  type Application,
  type Child,
} from './children';
import type { ResourceTemplate } from './schema';
import { byWave, type TemplatedObject } from './waves';

export interface ChildrenPlan {
  create: Child[];
  /** Whole children to replace, each with the resourceVersion it was planned from. */
  update: Child[];
  delete: Child[];
  /** Template names taken by a resource this application does not control, and why. */
  conflicts: string[];
  /** What is held back until something else happens first. */
  waiting: string[];
  desired: number;
  /** Templates whose child is Submitted as the template says now. */
  submitted: number;
  /** Templates whose child is not (yet), and of those the ones whose resource failed. */
  unsubmitted: string[];
  failed: string[];
}

export const hasWork = (plan: ChildrenPlan): boolean =>
  plan.create.length + plan.update.length + plan.delete.length + plan.conflicts.length > 0;

export function planChildren(app: Application, templates: readonly ResourceTemplate[], children: readonly Child[]): ChildrenPlan {
  const plan: ChildrenPlan = {
    create: [],
    update: [],
    delete: [],
    conflicts: [],
    waiting: [],
    desired: templates.length,
    submitted: 0,
    unsubmitted: [],
    failed: [],
  };
  const byName = new Map(children.map((c) => [c.metadata.name, c]));
  /** The template's child, ours, as the template says, and Submitted for it. */
  const done = (t: ResourceTemplate): boolean => {
    const child = byName.get(t.metadata.name);
    return child !== undefined && isCurrent(child, t, app) && isSubmitted(child);
  };

  const [firstWave, rest] = byWave(templates, (t) => t.spec.template);
  const firstWaveDone = firstWave.every(done);
  const firstWaveNames = firstWave.map((t) => t.metadata.name).join(', ');
  for (const template of firstWave) planTemplate(plan, app, template, byName.get(template.metadata.name), undefined);
  for (const template of rest) {
    const holdBack = firstWaveDone ? undefined : `once ${firstWaveNames} ${firstWave.length > 1 ? 'are' : 'is'} Submitted`;
    planTemplate(plan, app, template, byName.get(template.metadata.name), holdBack);
  }
  planRemovals(plan, app, templates, children);

  for (const template of templates) {
    const name = template.metadata.name;
    if (done(template)) plan.submitted += 1;
    else plan.unsubmitted.push(name);
    const child = byName.get(name);
    if (child && isControlledBy(child, app) && child.status?.state === 'Failed') plan.failed.push(name);
  }
  return plan;
}

const isCurrent = (child: Child, template: ResourceTemplate, app: Application): boolean =>
  isControlledBy(child, app) && !isDeleting(child) && sameIdentity(child, template) && differences(child, template).length === 0;

/** One template's child: `holdBack` says why its creates and updates wait, when they must. */
function planTemplate(plan: ChildrenPlan, app: Application, template: ResourceTemplate, child: Child | undefined, holdBack?: string): void {
  const name = template.metadata.name;
  if (!child) {
    if (holdBack) plan.waiting.push(`create ${name} ${holdBack}`);
    else plan.create.push(newChild(app, template));
    return;
  }
  if (!isControlledBy(child, app)) {
    // An earlier application of this name is being deleted, and its resources with it.
    if (isPredecessor(controllerOf(child), app)) plan.waiting.push(`create ${name} once the earlier one of that name is deleted`);
    else plan.conflicts.push(conflictMessage(child, app));
    return;
  }
  if (isDeleting(child)) {
    plan.waiting.push(`create ${name} again once it is deleted`);
    return;
  }
  if (!sameIdentity(child, template)) {
    // Another object now: the resource cannot be changed to it, so it is replaced.
    plan.delete.push(child);
    plan.waiting.push(`create ${name} again once it is deleted: its template names another object`);
    return;
  }
  const changed = differences(child, template);
  if (changed.length === 0) return;
  if (holdBack) plan.waiting.push(`update ${name} (${changed.join(', ')}) ${holdBack}`);
  else plan.update.push(updatedChild(child, template));
}

/** Children whose template is gone, in deletion order. */
function planRemovals(plan: ChildrenPlan, app: Application, templates: readonly ResourceTemplate[], children: readonly Child[]): void {
  const templated = new Set(templates.map((t) => t.metadata.name));
  const order = deletionOrder(children.filter((c) => isControlledBy(c, app) && !templated.has(c.metadata.name)));
  plan.delete.push(...order.now);
  if (order.later.length > 0)
    plan.waiting.push(`delete ${namesOf(order.later)} once ${namesOf(order.first)} ${order.first.length > 1 ? 'are' : 'is'} gone`);
}

/**
 * Which of these children to delete now: the other kinds first, Namespaces and CRDs once those
 * are gone (`later`, waiting for `first`). Children already being deleted are left to finish.
 */
export function deletionOrder(children: readonly Child[]): { now: Child[]; later: Child[]; first: Child[] } {
  const [firstWave, rest] = byWave(children, (c) => c.spec?.template as TemplatedObject | undefined);
  const notYetDeleting = (list: Child[]) => list.filter((c) => !isDeleting(c));
  if (rest.length === 0) return { now: notYetDeleting(firstWave), later: [], first: [] };
  return { now: notYetDeleting(rest), later: notYetDeleting(firstWave), first: rest };
}

/** One line for the UI and the Synced condition: what is to be done, and what waits. */
export function describePlan(plan: ChildrenPlan): string {
  const parts = [
    plan.create.length > 0 ? `create ${namesOf(plan.create)}` : '',
    plan.update.length > 0 ? `update ${namesOf(plan.update)}` : '',
    plan.delete.length > 0 ? `delete ${namesOf(plan.delete)}` : '',
    ...plan.conflicts,
    ...plan.waiting.map((w) => `then ${w}`),
  ];
  return parts.filter((p) => p !== '').join('; ');
}

const namesOf = (children: readonly Child[]): string => children.map((c) => c.metadata.name).join(', ');
