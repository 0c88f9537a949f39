import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { cookieJar, hasCookie, readCookie } from './cookies';

describe('cookieJar', () => {
  it('uses the __Host- prefix and Secure over https', () => {
    const jar = cookieJar('https://tunesmith.example');
    const cookie = jar.set('ts_session', 'abc', 900);
    expect(cookie).toBe('__Host-ts_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=900; Secure');
    expect(jar.clear('ts_session')).toMatch(/^__Host-ts_session=; .*Max-Age=0/);
  });

  it('drops both over plain http, which browsers would otherwise refuse', () => {
    const cookie = cookieJar('http://127.0.0.1:3000').set('ts_session', 'abc', 900);
    expect(cookie).toBe('ts_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=900');
  });

  it('reads cookies from the API Gateway cookies array', () => {
    const event = {
      cookies: ['a=1', '__Host-ts_session=x%3Dy', 'b=2; c=3'],
    } as unknown as APIGatewayProxyEventV2;
    expect(cookieJar('https://s.example').read(event, 'ts_session')).toBe('x=y');
    expect(readCookie(event, 'c')).toBe('3');
    expect(readCookie(event, 'ts_session')).toBeUndefined();
  });

  it('counts an unreadable cookie as absent, but still knows it is there', () => {
    const event = {
      cookies: ['ts_session=%E0%A4%A', `ts_refresh=${'a'.repeat(9000)}`, 'ok=%41'],
    } as unknown as APIGatewayProxyEventV2;
    expect(readCookie(event, 'ts_session')).toBeUndefined();
    expect(readCookie(event, 'ts_refresh')).toBeUndefined();
    expect(readCookie(event, 'ok')).toBe('A');
    expect(hasCookie(event, 'ts_session')).toBe(true);
    expect(hasCookie(event, 'ts_other')).toBe(false);
  });
});
