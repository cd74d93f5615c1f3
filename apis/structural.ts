// Turns a TypeBox schema into a Kubernetes structural schema. TypeBox writes some shapes in
// ways the API server does not accept (literal unions as anyOf/const, records as
// patternProperties); this rewrites exactly those and copies everything else.
type JsonSchema = Record<string, unknown>;

export function toStructural(schema: JsonSchema): JsonSchema {
  const literalUnion = asLiteralUnion(schema);
  if (literalUnion) return literalUnion;

  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' || key === 'const') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, toStructural(v)]));
    } else if (key === 'patternProperties') {
      const [valueSchema] = Object.values(value as Record<string, JsonSchema>);
      out.additionalProperties = toStructural(valueSchema!);
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = toStructural(value as JsonSchema);
    } else if (key === 'additionalProperties' && value === false) {
      // Structural schemas prune unknown fields already; `false` is not allowed here.
      continue;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** `Type.Union([Type.Literal('a'), Type.Literal('b')])` → `{ type: string, enum: [a, b] }`. */
function asLiteralUnion(schema: JsonSchema): JsonSchema | undefined {
  const members = schema.anyOf as JsonSchema[] | undefined;
  if (!members || !members.every((m) => 'const' in m)) return undefined;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, type: members[0]!.type, enum: members.map((m) => m.const) };
}
