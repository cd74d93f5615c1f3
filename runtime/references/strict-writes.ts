// Resolved values go to our own API server with strict field validation, so a toFieldPath that
// names no field of the kind is refused instead of pruned: a reference that writes nowhere must
// never report success. This turns the API server's refusal into a message that names the path.
import { parseFieldPath } from '#core/references/fieldpath';

/** The fields a strict write was refused for, as the API server names them (`spec.forProvider.x`). */
export function unknownFields(apiMessage: string): string[] {
  return [...apiMessage.matchAll(/unknown field "([^"]+)"/g)].map((m) => m[1]!);
}

/**
 * `cannot write spec.forProvider.noSuchField: the VPC kind has no such field`, one clause per
 * refused write; any other refusal (a value a rule forbids) is named with the API server's words.
 */
export function refusedWriteMessage(kindName: string, paths: readonly string[], apiMessage: string): string {
  const unknown = unknownFields(apiMessage);
  if (unknown.length === 0) return `cannot write ${paths.join(', ')}: ${apiMessage}`;
  return unknown
    .map((field) => {
      const path = paths.find((p) => field === dotted(p) || field.startsWith(`${dotted(p)}.`));
      if (path === undefined) return `cannot write ${field}: the ${kindName} kind has no such field`;
      return field === dotted(path)
        ? `cannot write ${path}: the ${kindName} kind has no such field`
        : `cannot write ${path}: the ${kindName} kind has no field ${field}`;
    })
    .join('; ');
}

/** A field path as the API server spells paths in its messages: fields with dots, indexes in brackets. */
function dotted(path: string): string {
  try {
    return parseFieldPath(path)
      .map((s, i) => (s.type === 'index' ? `[${s.index}]` : `${i === 0 ? '' : '.'}${s.name}`))
      .join('');
  } catch {
    return path;
  }
}
