/**
 * `npm run openapi`: writes the OpenAPI document `GET /api/v1/openapi.json`
 * serves, generated from the route manifest and the schemas the handlers
 * parse (functions/src/http/openapi.ts). Run it after changing an `/api/v1`
 * route, its docs or its schemas; a unit test fails until it is run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DOCUMENT_PATH, generatedDocumentModule } from '../functions/src/http/openapi';

const target = join(import.meta.dirname, '..', GENERATED_DOCUMENT_PATH);
writeFileSync(target, generatedDocumentModule());
console.log(`Wrote ${GENERATED_DOCUMENT_PATH}`);
