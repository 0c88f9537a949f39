import { describe, expect, it } from 'vitest';
import { apiPath, matchPath, matchRoute, routeGroups, routes, routesOfGroup } from './routes';

describe('route manifest', () => {
  it('lists the 45 calls of both spec documents plus the two downloads, the provider webhook and the site settings, each once', () => {
    expect(routes).toHaveLength(49);
    expect(new Set(routes.map((r) => r.id)).size).toBe(49);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(49);
    expect(
      routes.some((r) => r.method === 'POST' && r.path === '/api/webhooks/stripe' && r.auth === 'webhook'),
    ).toBe(true);
    expect(
      routes.some((r) => r.method === 'POST' && r.path === '/api/webhooks/fal' && r.auth === 'webhook'),
    ).toBe(true);
  });

  it('puts every route in a known group and every group has routes', () => {
    for (const route of routes) expect(routeGroups).toContain(route.group);
    for (const group of routeGroups) expect(routesOfGroup(group).length).toBeGreaterThan(0);
  });

  it('guards admin routes with admin auth, except admin login', () => {
    const admin = routes.filter((r) => r.path.startsWith('/api/admin/'));
    expect(admin).toHaveLength(20);
    for (const route of admin) expect(route.auth).toBe(route.id === 'adminLogin' ? 'public' : 'admin');
  });

  it('uses API Gateway {param} paths under /api', () => {
    for (const route of routes) expect(route.path).toMatch(/^\/api\/[a-z0-9\-/{}A-Z]+$/);
  });
});

describe('matchRoute', () => {
  it('matches static and parameterised paths and decodes params', () => {
    expect(matchRoute('GET', '/api/plans')?.route.id).toBe('listPlans');
    const hit = matchRoute('GET', '/api/generation/a%20b/status');
    expect(hit?.route.id).toBe('getGenerationStatus');
    expect(hit?.params).toEqual({ id: 'a b' });
  });

  it('tells routes apart by method', () => {
    expect(matchRoute('DELETE', '/api/generation/x')?.route.id).toBe('deleteGeneration');
    expect(matchRoute('GET', '/api/generation/x')).toBeUndefined();
  });

  it('refuses unknown paths, empty params and bad encodings', () => {
    expect(matchRoute('GET', '/api/nope')).toBeUndefined();
    expect(matchPath('/api/track/{id}', '/api/track/')).toBeUndefined();
    expect(matchPath('/api/track/{id}', '/api/track/%E0%A4%A')).toBeUndefined();
  });
});

describe('apiPath', () => {
  it('fills and encodes params', () => {
    expect(apiPath('getTrack', { id: 'a/b' })).toBe('/api/track/a%2Fb');
    expect(apiPath('listPlans')).toBe('/api/plans');
  });

  it('throws on a missing param', () => {
    expect(() => apiPath('getTrack')).toThrow(/Missing path parameter id/);
  });
});
