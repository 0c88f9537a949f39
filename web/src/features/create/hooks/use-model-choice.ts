import { useState } from 'react';
import { type ModelOffer, useModels } from '@/lib/models';

/**
 * The model a create form makes its track with: the models on offer for the
 * form's kind of job (restyling an upload needs a model that runs `audio`),
 * the one picked, else the site's default, else the first the plan offers.
 * `model` is undefined until the catalogue answers (or when it cannot): the
 * API then uses the site's default.
 */
export function useModelChoice(kind: 'text' | 'audio') {
  const catalogue = useModels();
  const [picked, setPicked] = useState<string | null>(null);
  const all = catalogue.data?.models ?? [];
  const offered = kind === 'audio' ? all.filter((m) => m.studio.includes('audio')) : all;
  const usable = (id: string | null | undefined) => offered.find((m) => m.id === id && m.available);
  const model: ModelOffer | undefined =
    usable(picked) ?? usable(catalogue.data?.defaultModel) ?? offered.find((m) => m.available);
  return { catalogue, offered, model, pick: setPicked };
}

export type ModelChoiceState = ReturnType<typeof useModelChoice>;
