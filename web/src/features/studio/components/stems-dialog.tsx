import { useQueryClient } from '@tanstack/react-query';
import { STEM_NAMES, STEM_SETS, type StemSet } from '@tunesmith/shared/stems';
import { useId, useState } from 'react';
import { trackStemsQueryKey, useTrackStems } from '@/components/tracks/track-stems';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { refusalMessage } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useRequestStems } from '../api/request-stems';
import { studioMessages } from '../messages';
import type { StudioDialogProps } from './extend-dialog';
import { StudioFooter } from './studio-form-parts';

const setOptions = [
  { value: '4', label: '4 stems' },
  { value: '6', label: '6 stems' },
] as const satisfies readonly { value: StemSet; label: string }[];

/**
 * Separate stems: which set (4, or 6 with guitar and piano), what it makes and
 * what it costs. A set the track has, or is being made, is said so, with no
 * cost and nothing to press; a set the plan does not offer is the server's to
 * refuse, with its message.
 */
export function StemsDialog({ track, onClose }: Pick<StudioDialogProps, 'track' | 'onClose'>) {
  const id = useId();
  const queryClient = useQueryClient();
  const handleUnauthorized = useUnauthorizedHandler();
  const request = useRequestStems();
  const known = useTrackStems(track.id);
  const [set, setSet] = useState<StemSet>(known.data?.set ?? STEM_SETS[0]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const title = trackTitle(track);
  const existing =
    known.data?.set === set && (known.data.status === 'ready' || known.data.status === 'processing')
      ? known.data.status
      : null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (request.isPending || existing) return;
    setRefusal(null);
    request.mutate(
      { id: track.id, set },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: trackStemsQueryKey(track.id) });
          void queryClient.invalidateQueries({ queryKey: userQueryKey });
          toast({ title: studioMessages.stemsStartedTitle, description: studioMessages.stemsStarted(title) });
          onClose();
        },
        onError: (error) => {
          if (handleUnauthorized(error)) return;
          // A refusal may come from a count the screen had not seen: the dialog then offers the plans.
          void queryClient.invalidateQueries({ queryKey: userQueryKey });
          const message = refusalMessage(error, studioMessages.stemsFailed);
          toast({ title: studioMessages.stemsFailedTitle, description: message, variant: 'destructive' });
          setRefusal(message);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      role="alertdialog"
      title={studioMessages.actions.stems}
      description={`Take "${title}" apart into its instruments.`}
    >
      <form onSubmit={submit} className="grid gap-4" aria-label={`Separate the stems of ${title}`}>
        <div className="grid gap-2">
          <ToggleGroup
            label="Stems"
            options={setOptions}
            value={set}
            onChange={(next) => {
              setSet(next);
              setRefusal(null);
            }}
            describedBy={`${id}-set`}
          />
          <p id={`${id}-set`} className="text-xs text-zinc-400">
            {studioMessages.stemNames(STEM_NAMES[set])}
          </p>
        </div>
        {existing ? (
          <p role="status" className="text-sm text-zinc-200">
            {existing === 'ready' ? studioMessages.stemsExist : studioMessages.stemsUnderWay}
          </p>
        ) : null}
        <StudioFooter
          willMake={studioMessages.stemsWillMake(set)}
          refusal={refusal}
          pending={request.isPending}
          submitLabel={studioMessages.submit.stems}
          onCancel={onClose}
          canSubmit={!existing}
        />
      </form>
    </Dialog>
  );
}
