import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ScrollRegion } from '@/components/ui/scroll-region';
import type { OpenApiDocument } from '../api/get-openapi';
import { CodeBlock } from './code-block';
import { Endpoint } from './endpoint';
import { Examples, verifyWebhookExample } from './examples';
import { Prose } from './prose';
import { SchemaFields } from './schema-fields';

const sections = [
  { id: 'authentication', title: 'Authentication' },
  { id: 'idempotency', title: 'Idempotency' },
  { id: 'rate-limits', title: 'Rate limits' },
  { id: 'errors', title: 'Errors' },
  { id: 'endpoints', title: 'Endpoints' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'examples', title: 'Examples' },
] as const;

type SectionId = (typeof sections)[number]['id'];

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const title = sections.find((section) => section.id === id)?.title;
  return (
    <section aria-labelledby={id} className="scroll-mt-24">
      <h2 id={id} className="text-2xl font-bold text-white">
        {title}
      </h2>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The API reference, drawn from the OpenAPI document the API serves. */
export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const origin = doc.servers?.[0]?.url ?? window.location.origin;
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method: method.toUpperCase(), operation }] : [];
    }),
  );
  const tags = doc.tags?.map((tag) => tag.name) ?? [];
  const limits = doc['x-rate-limits'];
  const signing = doc['x-webhooks'];
  const signatureHeader = signing ? doc.components.headers[signing.signatureHeader] : undefined;
  return (
    <div className="grid gap-10 lg:grid-cols-[14rem_1fr]">
      <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
        <ul className="grid gap-2 text-sm">
          {sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="rounded text-zinc-300 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-300"
              >
                {section.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 space-y-14">
        <Section id="authentication">
          <Prose text={doc.components.securitySchemes.apiKey?.description} className="text-zinc-300" />
          <p className="text-zinc-300">
            Create and revoke keys in{' '}
            <Link to="/profile" className="text-violet-300 underline hover:text-violet-200">
              Profile → Developers
            </Link>
            .
          </p>
          <CodeBlock
            label="An authenticated request"
            code={`curl ${origin}/api/v1/tracks \\\n  --header "Authorization: Bearer $TUNESMITH_API_KEY"`}
          />
        </Section>
        <Section id="idempotency">
          <Prose text={doc.components.parameters.IdempotencyKey?.description} className="text-zinc-300" />
        </Section>
        <Section id="rate-limits">
          {limits && (
            <p className="text-zinc-300">
              Each key may make {limits.requestsPerMinute} requests a minute, of which{' '}
              {limits.startsPerMinute} may start work (the POSTs that make a track or an upload). These limits
              are your key's own, apart from the app's.
            </p>
          )}
          <Prose
            text="Past a limit, or once your plan's weekly quota is used up, the answer is `429` with a `Retry-After` header: the seconds to wait before trying again."
            className="text-zinc-300"
          />
        </Section>
        <Section id="errors">
          <p className="text-zinc-300">
            Every error answers with a stable code and a sentence you can show to people, the same messages
            the app shows:
          </p>
          <SchemaFields doc={doc} schema={{ $ref: '#/components/schemas/Error' }} caption="Error body" />
          <ScrollRegion label="Error codes">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Error codes</caption>
              <thead className="text-zinc-400">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Code
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    When
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/5 text-zinc-200">
                {(doc['x-error-codes'] ?? []).map((error) => (
                  <tr key={error.status}>
                    <th scope="row" className="py-2 pr-4 align-top font-mono font-normal text-white">
                      {error.status}
                    </th>
                    <td className="py-2 pr-4 align-top font-mono text-violet-200">{error.code}</td>
                    <td className="py-2 align-top text-zinc-300">{error.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </Section>
        <Section id="endpoints">
          <p className="text-zinc-300">
            Base URL <code className="font-mono text-white">{origin}</code>. The same description as{' '}
            <a href="/api/v1/openapi.json" className="text-violet-300 underline hover:text-violet-200">
              OpenAPI 3.1 JSON
            </a>
            , for your tools.
          </p>
          {tags.map((tag) => (
            <div key={tag} className="space-y-6">
              {operations
                .filter(({ operation }) => operation.tags?.includes(tag))
                .map(({ path, method, operation }) => (
                  <Endpoint
                    key={operation.operationId}
                    doc={doc}
                    method={method}
                    path={path}
                    operation={operation}
                  />
                ))}
            </div>
          ))}
        </Section>
        <Section id="webhooks">
          <p className="text-zinc-300">
            Add an endpoint in Profile → Developers and choose its events. Each delivery is a POST of JSON,
            signed with the endpoint's secret; "Send test event" sends a{' '}
            <code className="font-mono">{signing?.testEvent}</code> event at once.
          </p>
          {signing && (
            <p className="text-zinc-300">
              <code className="font-mono text-white">{signing.signatureHeader}</code>:{' '}
              <Prose text={signatureHeader?.description} as="span" />
            </p>
          )}
          {Object.entries(doc.webhooks ?? {}).map(([event, { post }]) => (
            <article
              key={event}
              aria-labelledby={`webhook-${event}`}
              className="rounded-2xl border border-white/10 bg-zinc-900/70 p-6"
            >
              <h3 id={`webhook-${event}`} className="font-mono text-lg font-semibold text-white">
                {event}
              </h3>
              <Prose text={post.description} className="mt-2 text-zinc-300" />
            </article>
          ))}
          <SchemaFields
            doc={doc}
            schema={{ $ref: '#/components/schemas/WebhookEvent' }}
            caption="Webhook event body"
          />
          <h3 className="text-lg font-semibold text-white">Verify a signature</h3>
          <p className="text-zinc-300">
            Check the signature over the raw body before parsing it, refuse a delivery more than{' '}
            {signing?.toleranceSeconds ?? 300} seconds old, and compare in constant time:
          </p>
          <CodeBlock label={verifyWebhookExample.file} code={verifyWebhookExample.code} />
        </Section>
        <Section id="examples">
          <Examples origin={origin} />
        </Section>
      </div>
    </div>
  );
}
