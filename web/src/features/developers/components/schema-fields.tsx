import { ScrollRegion } from '@/components/ui/scroll-region';
import type { JsonSchema, OpenApiDocument } from '../api/get-openapi';

/** The schema a `$ref` names, or the schema itself. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema?.$ref) return schema ?? {};
  return doc.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {};
}

/** The name a `$ref` gives a schema, if any. */
export const schemaName = (schema: JsonSchema | undefined) => schema?.$ref?.split('/').pop();

interface Field {
  name: string;
  type: string;
  required: boolean;
  details: string[];
}

/** A schema without its `null` alternative, and whether it had one. */
function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  const branches = schema.anyOf?.filter((branch) => branch.type !== 'null');
  if (schema.anyOf && branches?.length === 1 && branches[0]) return { schema: branches[0], nullable: true };
  return { schema, nullable: false };
}

function typeText(doc: OpenApiDocument, raw: JsonSchema): string {
  const { schema, nullable } = withoutNull(raw);
  const named = schemaName(schema);
  let text: string;
  if (named) text = named;
  else if (schema.const !== undefined) text = JSON.stringify(schema.const);
  else if (schema.enum) text = schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  else if (schema.type === 'array') text = `array of ${schema.items ? typeText(doc, schema.items) : 'any'}`;
  else if (Array.isArray(schema.type)) text = schema.type.join(' | ');
  else if (schema.type === 'object' && !schema.properties) text = 'object';
  else text = schema.type ?? 'any';
  return nullable ? `${text} | null` : text;
}

function detailsOf(schema: JsonSchema): string[] {
  const details: string[] = [];
  if (schema.minLength !== undefined && schema.maxLength !== undefined)
    details.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) details.push(`at most ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) details.push(`at least ${schema.minLength} characters`);
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    details.push(`from ${schema.minimum} to ${schema.maximum}`);
  else if (schema.maximum !== undefined) details.push(`at most ${schema.maximum}`);
  else if (schema.minimum !== undefined) details.push(`at least ${schema.minimum}`);
  if (schema.pattern) details.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) details.push(`default ${JSON.stringify(schema.default)}`);
  return details;
}

/** Every field of an object schema, nested objects' fields named with dots (`audio.stream`, `stems[].url`). */
export function schemaFields(doc: OpenApiDocument, root: JsonSchema, prefix = '', depth = 0): Field[] {
  const schema = resolveSchema(doc, root);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const inner = withoutNull(property).schema;
    const field: Field = {
      name,
      type: typeText(doc, property),
      required: required.has(key),
      details: detailsOf(inner),
    };
    if (depth >= 2) return [field];
    if (inner.type === 'object' && inner.properties)
      return [field, ...schemaFields(doc, inner, `${name}.`, depth + 1)];
    const items = inner.type === 'array' && inner.items ? withoutNull(inner.items).schema : undefined;
    if (items?.type === 'object' && items.properties)
      return [field, ...schemaFields(doc, items, `${name}[].`, depth + 1)];
    return [field];
  });
}

/** An object schema as a table of its fields: name, type, whether required, and limits. */
export function SchemaFields({
  doc,
  schema,
  caption,
}: {
  doc: OpenApiDocument;
  schema: JsonSchema;
  caption: string;
}) {
  const fields = schemaFields(doc, schema);
  if (fields.length === 0) return <p className="text-sm text-zinc-400">{caption}: no fields.</p>;
  return (
    <ScrollRegion label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-zinc-400">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Field
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 font-medium">
              Notes
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5 text-zinc-200">
          {fields.map((field) => (
            <tr key={field.name}>
              <th scope="row" className="py-2 pr-4 align-top font-mono font-normal text-white">
                {field.name}
              </th>
              <td className="py-2 pr-4 align-top font-mono text-violet-200">{field.type}</td>
              <td className="py-2 align-top text-zinc-300">
                {[field.required ? 'required' : 'optional', ...field.details].join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
