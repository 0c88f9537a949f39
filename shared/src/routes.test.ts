import { describe, expect, it } from 'vitest';
import * as admin from './calls/admin';
import * as adminSession from './calls/admin-session';
import * as apiV1 from './calls/api-v1';
import * as auth from './calls/auth';
import * as billing from './calls/billing';
import * as catalog from './calls/catalog';
import * as community from './calls/community';
import * as developers from './calls/developers';
import * as generation from './calls/generation';
import * as models from './calls/models';
import * as stems from './calls/stems';
import * as uploads from './calls/uploads';
import * as webhooks from './calls/webhooks';
import { apiPath, matchPath, matchRoute, routeById, routeGroups, routes, routesOfGroup } from './routes';

describe('route manifest', () => {
  it('lists the 45 calls of both spec documents plus the two downloads, the provider webhook, the site settings, the upload dialog’s five multipart calls, the studio’s three, ownership’s five, a shared link’s audio (GET and HEAD), the admin’s second factor, a track’s lyrics in time, the stems’ three, the models’ three, the developers’ eight, /api/v1’s eight, the community’s twenty-two and the admin’s two report calls, each once', () => {
    expect(routes).toHaveLength(112);
    expect(new Set(routes.map((r) => r.id)).size).toBe(112);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(112);
    expect(
      routes.some((r) => r.method === 'POST' && r.path === '/api/webhooks/stripe' && r.auth === 'webhook'),
    ).toBe(true);
    expect(
      routes.some((r) => r.method === 'POST' && r.path === '/api/webhooks/fal' && r.auth === 'webhook'),
    ).toBe(true);
  });

  it("lists every call of each group's module (and the stems' and models' modules), under the name of its id, in that module's group", () => {
    const modules = {
      admin,
      'admin-session': adminSession,
      auth,
      billing,
      catalog,
      generation,
      uploads,
      webhooks,
      developers,
      'api-v1': apiV1,
      community,
    };
    expect(Object.keys(modules).sort()).toEqual([...routeGroups].sort());
    const declared = Object.entries(modules).flatMap(([group, calls]) =>
      Object.entries(calls).map(([name, route]) => {
        expect(route.id).toBe(name);
        expect(route.group).toBe(group);
        return route;
      }),
    );
    // The stems' calls share a module of their own across two groups (calls/stems.ts says why).
    const stemsCalls = Object.entries(stems).map(([name, route]) => {
      expect(route.id).toBe(name);
      expect(['catalog', 'generation']).toContain(route.group);
      return route;
    });
    // So do the models' calls (calls/models.ts): the models on offer, and their settings in the admin area.
    const modelsCalls = Object.entries(models).map(([name, route]) => {
      expect(route.id).toBe(name);
      expect(['catalog', 'admin']).toContain(route.group);
      return route;
    });
    expect(new Set([...declared, ...stemsCalls, ...modelsCalls])).toEqual(new Set(routes));
  });

  it('puts every route in a known group and every group has routes', () => {
    for (const route of routes) expect(routeGroups).toContain(route.group);
    for (const group of routeGroups) expect(routesOfGroup(group).length).toBeGreaterThan(0);
  });

  it('guards admin routes with admin auth, except the two steps of admin login', () => {
    const admin = routes.filter((r) => r.path.startsWith('/api/admin/'));
    expect(admin).toHaveLength(25);
    const signIn = ['adminLogin', 'adminLoginCode'];
    for (const route of admin) expect(route.auth).toBe(signIn.includes(route.id) ? 'public' : 'admin');
  });

  it('uses API Gateway {param} paths under /api', () => {
    // The OpenAPI document is the one path with a dot, the name tools look for (decision 052).
    for (const route of routes) {
      expect(route.path).toMatch(
        route.id === 'v1OpenApi' ? /^\/api\/v1\/openapi\.json$/ : /^\/api\/[a-z0-9\-/{}A-Z]+$/,
      );
    }
  });

  it('calls the developer API with a key only, each route naming the scope it needs', () => {
    for (const route of routesOfGroup('api-v1')) {
      if (route.id === 'v1OpenApi') expect(route.auth).toBe('public');
      else {
        expect(route.auth, route.id).toBe('key');
        expect(route.scope, route.id).toBe(route.method === 'GET' ? 'read' : 'generate');
      }
    }
    expect(routes.filter((r) => r.auth === 'key').every((r) => r.group === 'api-v1')).toBe(true);
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

describe('the upload dialog’s multipart calls', () => {
  it('are user calls of the uploads group, told apart by method and path', () => {
    expect(matchRoute('POST', '/api/s3/multipart')?.route.id).toBe('createMultipartUpload');
    expect(matchRoute('GET', '/api/s3/multipart/up.1_x-y')).toEqual({
      route: expect.objectContaining({ id: 'listMultipartParts' }),
      params: { uploadId: 'up.1_x-y' },
    });
    expect(matchRoute('GET', '/api/s3/multipart/u1/3')?.params).toEqual({ uploadId: 'u1', partNumber: '3' });
    expect(matchRoute('POST', '/api/s3/multipart/u1/complete')?.route.id).toBe('completeMultipartUpload');
    expect(matchRoute('DELETE', '/api/s3/multipart/u1')?.route.id).toBe('abortMultipartUpload');
    for (const route of routes.filter((r) => r.path.startsWith('/api/s3/'))) {
      expect([route.group, route.auth]).toEqual(['uploads', 'user']);
    }
  });
});

describe('a shared link’s audio', () => {
  it('is a public catalogue call beside the track page, told apart from it by its path', () => {
    expect(matchRoute('GET', '/api/track/t-1/audio')).toEqual({
      route: expect.objectContaining({ id: 'getTrackAudio', group: 'catalog', auth: 'public' }),
      params: { id: 't-1' },
    });
    expect(matchRoute('GET', '/api/track/t-1')?.route.id).toBe('getTrack');
    expect(routeById('getTrackAudio').group).toBe(routeById('getTrack').group);
    // A HEAD (a preview checking the audio) has a route of its own: API Gateway matches methods exactly.
    expect(matchRoute('HEAD', '/api/track/t-1/audio')).toEqual({
      route: expect.objectContaining({ id: 'headTrackAudio', group: 'catalog', auth: 'public' }),
      params: { id: 't-1' },
    });
    expect(matchRoute('HEAD', '/api/track/t-1')).toBeUndefined();
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
