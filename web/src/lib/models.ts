import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RouteDef } from '@tunesmith/shared/api-routes';
import type { ModelJobKind, ModelPrice } from '@tunesmith/shared/models';
import { apiRequest } from './api-client';
import { useUser } from './auth';

/** One model of `GET /api/models`. */
export interface ModelOffer {
  id: string;
  name: string;
  vendor: string;
  bestFor: string;
  lyrics: 'optional' | 'required' | 'none';
  lyricsLength?: { min: number; max: number };
  promptLength: { min: number; max: number };
  duration: { min: number; max: number } | null;
  languages: string[];
  studio: Exclude<ModelJobKind, 'text'>[];
  price: ModelPrice;
  termsUrl: string;
  quotaCost: number;
  plans: { id: string; name: string }[];
  available: boolean;
}

/** `GET /api/models`. */
export interface ModelCatalogue {
  defaultModel: string;
  models: ModelOffer[];
}

const listModels = {
  id: 'listModels',
  group: 'catalog',
  method: 'GET',
  path: '/api/models',
  auth: 'public',
} as const satisfies RouteDef;

/** The models that are on, what each costs and whether this user's plan offers it. */
export function getModels(): Promise<ModelCatalogue> {
  return apiRequest<ModelCatalogue>(listModels);
}

/**
 * The catalogue as the signed-in user (or a visitor, `null`) sees it:
 * `available` follows the plan, so each account has its own entry.
 */
export const modelsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['models', userId] as const,
    queryFn: getModels,
  });

/** The catalogue for whoever is signed in, asked for once who that is is known. */
export function useModels() {
  const { user, isLoading } = useUser();
  return useQuery({ ...modelsQueryOptions(user?.id ?? null), enabled: !isLoading });
}

/** "1 generation", "3 generations": what one track with the model takes of the week's quota. */
export const generationsCost = (units: number) => (units === 1 ? '1 generation' : `${units} generations`);

/** "Basic", "Basic and Premium", "Basic, Premium and Studio". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
