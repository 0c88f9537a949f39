import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { DomainError } from '../domain/errors';
import { clientAddress, readJson } from './request';

const withHeaders = (headers: Record<string, string>, body?: string) =>
  ({
    headers,
    body,
    requestContext: { http: { sourceIp: '10.9.9.9' } },
  }) as unknown as APIGatewayProxyEventV2;

describe('clientAddress', () => {
  it('counts trusted proxy hops back from the end of X-Forwarded-For', () => {
    const event = withHeaders({ 'x-forwarded-for': 'forged, 203.0.113.5, 130.176.0.1' });
    expect(clientAddress(event, 1)).toBe('203.0.113.5');
    expect(clientAddress(event, 0)).toBe('130.176.0.1');
  });

  it('falls back to the first entry and then to the source address', () => {
    expect(clientAddress(withHeaders({ 'x-forwarded-for': '203.0.113.5' }), 3)).toBe('203.0.113.5');
    expect(clientAddress(withHeaders({}), 1)).toBe('10.9.9.9');
  });

  it('uses only a well-formed address, of bounded size', () => {
    const long = `${'1'.repeat(3000)}, 130.176.0.1`;
    expect(clientAddress(withHeaders({ 'x-forwarded-for': long }), 1)).toBe('10.9.9.9');
    expect(clientAddress(withHeaders({ 'x-forwarded-for': 'fe80::1%eth0, 130.176.0.1' }), 1)).toBe(
      '10.9.9.9',
    );
    expect(clientAddress(withHeaders({ 'x-forwarded-for': 'not-an-ip, 130.176.0.1' }), 1)).toBe('10.9.9.9');
    expect(clientAddress(withHeaders({ 'x-forwarded-for': '2001:DB8::1, 130.176.0.1' }), 1)).toBe(
      '2001:db8::1',
    );
  });
});

describe('readJson', () => {
  const schema = z.object({ name: z.string().check(z.minLength(1, 'Name is required')) });

  it('returns the parsed body', () => {
    expect(readJson(withHeaders({}, '{"name":"a"}'), schema)).toEqual({ name: 'a' });
  });

  it('answers bad JSON and failed rules as validation errors with the rule message', () => {
    expect(() => readJson(withHeaders({}, '{nope'), schema)).toThrow('Request body must be valid JSON');
    try {
      readJson(withHeaders({}, '{"name":""}'), schema);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).message).toBe('Name is required');
    }
  });

  it('decodes base64 bodies', () => {
    const event = {
      ...withHeaders({}, Buffer.from('{"name":"b"}').toString('base64')),
      isBase64Encoded: true,
    };
    expect(readJson(event, schema)).toEqual({ name: 'b' });
  });
});
