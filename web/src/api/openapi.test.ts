// The API description is valid OpenAPI 3.1, and the console's API types are generated
// from it as committed (run `make api` after changing a route).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module script without type declarations
import { generate } from '../../scripts/gen-api.mjs';

// vitest runs in web/
const dir = join(process.cwd(), 'src', 'api');
const source = readFileSync(join(dir, 'openapi.json'), 'utf8');

describe('API description', () => {
  it('is valid OpenAPI 3.1', async () => {
    const config = await createConfig({
      rules: { struct: 'error', 'no-unresolved-refs': 'error', 'operation-operationId-unique': 'error', 'path-parameters-defined': 'error' },
    });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  }, 60_000);

  it('finds errors when there are some', async () => {
    const broken = JSON.parse(source);
    broken.paths['/v2/login'].post.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nowhere' };
    broken.paths['/v2/login'].post.requestBody = { required: 'yes' };
    const config = await createConfig({ rules: { struct: 'error', 'no-unresolved-refs': 'error' } });
    const problems = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('gives the committed console types', async () => {
    const committed = readFileSync(join(dir, 'schema.d.ts'), 'utf8');
    expect((await generate(JSON.parse(source))) === committed, 'src/api/schema.d.ts is stale: run make api').toBe(true);
  }, 60_000);
});
