import type { OpenApiDocument, Operation, Parameter } from '../api/get-openapi';
import { Prose } from './prose';
import { SchemaFields, schemaName } from './schema-fields';

const methodColours: Record<string, string> = {
  GET: 'bg-emerald-500/15 text-emerald-200',
  POST: 'bg-violet-500/20 text-violet-100',
};

/** An operation's parameters, shared ones (`$ref`) looked up in the document. */
function parametersOf(doc: OpenApiDocument, operation: Operation): Parameter[] {
  return (operation.parameters ?? []).map((parameter) =>
    '$ref' in parameter
      ? (doc.components.parameters[parameter.$ref.split('/').pop() ?? ''] as Parameter)
      : parameter,
  );
}

/** The id an operation's heading carries, for the page's contents and links to it. */
export const operationAnchor = (operation: Operation) => `op-${operation.operationId}`;

/** One call of the API: what it does, what it takes and what it answers. */
export function Endpoint({
  doc,
  method,
  path,
  operation,
}: {
  doc: OpenApiDocument;
  method: string;
  path: string;
  operation: Operation;
}) {
  const parameters = parametersOf(doc, operation);
  const body = operation.requestBody?.content['application/json']?.schema;
  const scope = operation.security?.[0]?.apiKey?.[0];
  const headingId = operationAnchor(operation);
  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-white/10 bg-zinc-900/70 p-6">
      <h3 id={headingId} className="flex flex-wrap items-center gap-3 text-lg font-semibold text-white">
        <span
          className={`rounded-md px-2 py-0.5 font-mono text-sm ${methodColours[method] ?? 'bg-white/10'}`}
        >
          {method}
        </span>
        <code className="font-mono text-base break-all">{path}</code>
        <span className="sr-only">:</span>
        <span className="text-base font-normal text-zinc-300">{operation.summary}</span>
      </h3>
      <Prose text={operation.description} className="mt-3 text-zinc-300" />
      <p className="mt-2 text-sm text-zinc-400">
        {scope ? (
          <>
            Needs a key with the <code className="font-mono text-zinc-200">{scope}</code> scope.
          </>
        ) : (
          'Public: no key needed.'
        )}
      </p>
      {parameters.length > 0 && (
        <section aria-labelledby={`${headingId}-parameters`} className="mt-5">
          <h4 id={`${headingId}-parameters`} className="font-semibold text-white">
            Parameters
          </h4>
          <ul className="mt-2 space-y-2 text-sm text-zinc-300">
            {parameters.map((parameter) => (
              <li key={`${parameter.in} ${parameter.name}`}>
                <code className="font-mono text-white">{parameter.name}</code>{' '}
                <span className="text-zinc-400">
                  ({parameter.in}, {parameter.required ? 'required' : 'optional'})
                </span>
                {parameter.description && (
                  <Prose text={parameter.description} className="mt-1 text-zinc-400" />
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {body && (
        <section aria-labelledby={`${headingId}-body`} className="mt-5">
          <h4 id={`${headingId}-body`} className="font-semibold text-white">
            Request body{' '}
            <span className="font-normal text-zinc-400">
              ({schemaName(body)}, JSON{operation.requestBody?.required ? '' : ', may be left out'})
            </span>
          </h4>
          <SchemaFields doc={doc} schema={body} caption={`${operation.summary}: request body`} />
        </section>
      )}
      <section aria-labelledby={`${headingId}-responses`} className="mt-5">
        <h4 id={`${headingId}-responses`} className="font-semibold text-white">
          Responses
        </h4>
        <dl className="mt-2 space-y-3 text-sm">
          {Object.entries(operation.responses).map(([status, response]) => {
            const schema = response.content?.['application/json']?.schema;
            const name = schemaName(schema);
            return (
              <div key={status}>
                <dt className="font-mono text-white">
                  {status}
                  {name && <span className="ml-2 text-violet-200">{name}</span>}
                </dt>
                <dd className="text-zinc-300">
                  <Prose text={response.description} />
                  {schema && status.startsWith('2') && (
                    <SchemaFields
                      doc={doc}
                      schema={schema}
                      caption={`${operation.summary}: ${status} answer`}
                    />
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </section>
    </article>
  );
}
