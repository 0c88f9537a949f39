import { queryOptions, useQuery } from '@tanstack/react-query';
import * as modelCalls from '@tunesmith/shared/calls/models';
import type { ModelsAnswer, OfferedModel } from '@tunesmith/shared/model-settings';
import { apiRequest } from './api-client';
import { useUser } from './auth';

/** One model of `GET /api/models`. */
export type ModelOffer = OfferedModel;
/** `GET /api/models`. */
export type ModelCatalogue = ModelsAnswer;

/** The models that are on, what each costs and whether this user's plan offers it. */
export function getModels(): Promise<ModelCatalogue> {
  return apiRequest<ModelCatalogue>(modelCalls.listModels);
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
