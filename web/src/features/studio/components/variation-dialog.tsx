import { useState } from 'react';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { useCreateVariation } from '../api/create-variation';
import { useStudioModel } from '../hooks/use-studio-model';
import { useStudioOutcome } from '../hooks/use-studio-outcome';
import { studioMessages } from '../messages';
import type { StudioDialogProps } from './extend-dialog';
import { StudioFooter } from './studio-form-parts';

/** Make variation: a confirmation of what it makes and what it costs. */
export function VariationDialog({ track, onClose, onStarted }: StudioDialogProps) {
  const variation = useCreateVariation();
  const outcome = useStudioOutcome();
  const model = useStudioModel(track, 'variation');
  const [refusal, setRefusal] = useState<string | null>(null);
  const title = trackTitle(track);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (variation.isPending) return;
    setRefusal(null);
    variation.mutate(track.id, {
      onSuccess: (answer) => {
        const made = outcome.started('variation', track, answer);
        onClose();
        onStarted?.(made);
      },
      onError: (error) => setRefusal(outcome.failed(error)),
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      title={studioMessages.actions.variation}
      description={`Another take of "${title}".`}
    >
      <form onSubmit={submit} className="grid gap-4" aria-label={`Make a variation of ${title}`}>
        <StudioFooter
          willMake={studioMessages.variationWillMake}
          refusal={refusal}
          pending={variation.isPending}
          submitLabel={studioMessages.submit.variation}
          onCancel={onClose}
          model={{ kind: 'variation', which: model }}
        />
      </form>
    </Dialog>
  );
}
