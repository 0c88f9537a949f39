import { useQueryClient } from '@tanstack/react-query';
import { STEM_NAMES, STEM_SETS, type StemSet, stemsMessages } from '@tunesmith/shared/stems';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { trackStemsQueryKey, useTrackStems } from '@/components/tracks/track-stems';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { refusalMessage } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useRequestStems } from '../api/request-stems';
import { useStemOffer } from '../hooks/use-stem-offer';
import { studioMessages } from '../messages';
import type { StudioDialogProps } from './extend-dialog';
import { StudioFooter } from './studio-form-parts';

const setLabel = (set: StemSet) => `${set} stems`;

/**
 * Separate stems: which set (4, or 6 with guitar and piano), what it makes and
 * what it costs. A set the plan does not offer is shown but cannot be chosen,
 * with the plans that have it and a link to them (the server refuses it all
 * the same). A set the track has, or is being made, is said so, with no cost
 * and nothing to press.
 */
export function StemsDialog({ track, onClose }: Pick<StudioDialogProps, 'track' | 'onClose'>) {
  const id = useId();
  const queryClient = useQueryClient();
  const handleUnauthorized = useUnauthorizedHandler();
  const request = useRequestStems();
  const known = useTrackStems(track.id);
  const offer = useStemOffer();
  const [chosen, setSet] = useState<StemSet>(known.data?.set ?? STEM_SETS[0]);
  const [refusal, setRefusal] = useState<string | null>(null);
  // A set the plan lacks is never the one asked for, whatever was shown first.
  const set = offer.allowed.includes(chosen) ? chosen : (offer.allowed[0] ?? chosen);
  const unavailable = STEM_SETS.filter((option) => !offer.allowed.includes(option));
  const options = STEM_SETS.map((option) => ({
    value: option,
    label: setLabel(option),
    disabled: unavailable.includes(option),
  }));
  const title = trackTitle(track);
  const existing =
    known.data?.set === set && (known.data.status === 'ready' || known.data.status === 'processing')
      ? known.data.status
      : null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (request.isPending || existing || !offer.allowed.includes(set)) return;
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
            options={options}
            value={set}
            onChange={(next) => {
              setSet(next);
              setRefusal(null);
            }}
            describedBy={[`${id}-set`, ...unavailable.map((option) => `${id}-not-${option}`)].join(' ')}
          />
          <p id={`${id}-set`} className="text-xs text-zinc-400">
            {studioMessages.stemNames(STEM_NAMES[set])}
          </p>
          {unavailable.map((option) => (
            <p key={option} id={`${id}-not-${option}`} className="text-xs text-zinc-300">
              {stemsMessages.setNotOnPlan(option, [...offer.plansWith[option]])}{' '}
              {offer.plansWith[option].length ? (
                <Link
                  to="/pricing"
                  className="font-medium text-violet-300 underline underline-offset-2 hover:text-violet-200"
                >
                  {studioMessages.seePlans}
                </Link>
              ) : null}
            </p>
          ))}
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
          canSubmit={!existing && offer.allowed.includes(set)}
        />
      </form>
    </Dialog>
  );
}
