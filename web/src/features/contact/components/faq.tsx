import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';

const questions = [
  {
    q: 'What do I get with the free plan?',
    a: 'The Free plan lets you create up to 5 songs a week. Tracks made on the Free plan are shared publicly and cannot be downloaded.',
  },
  {
    q: 'Can I download my tracks?',
    a: 'Yes, on the Basic and Premium plans. You can download any of your finished tracks from your library as a WAV file.',
  },
  {
    q: 'How long can a track be?',
    a: 'You choose the length of every track, from 5 seconds up to 4 minutes. Most tracks are ready in 30-60 seconds.',
  },
  {
    q: 'Who owns the music I create?',
    a: 'You own the tracks you create, subject to our Terms of Service. Commercial use, such as in ads or paid products, needs the Premium plan, which includes a commercial license.',
  },
  {
    q: 'How do I cancel my subscription?',
    a: 'Open your profile and choose Cancel Subscription. Your plan stays active until the end of the billing period you have paid for.',
  },
] as const;

export function Faq() {
  return (
    <Card className="p-6">
      <h2 className="text-xl font-semibold text-white">Frequently Asked Questions</h2>
      <div className="mt-4 divide-y divide-white/10">
        {questions.map(({ q, a }) => (
          <details key={q} className="group py-3">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded font-medium text-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300 [&::-webkit-details-marker]:hidden">
              {q}
              <Icon className="size-4 shrink-0 transition-transform group-open:rotate-180" d="M6 9l6 6 6-6" />
            </summary>
            <p className="mt-2 text-sm text-zinc-300">{a}</p>
          </details>
        ))}
      </div>
    </Card>
  );
}
