import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';

const features = [
  {
    title: 'Text to Music',
    text: 'Describe the sound you want with genre tags and add lyrics, or leave them out for an instrumental. Your track is ready in 30-60 seconds.',
    icon: 'M4 6h16M4 12h10M4 18h7M17 14v6m0 0a2 2 0 1 1-2-2h2',
  },
  {
    title: 'Custom Duration',
    text: 'Choose exactly how long your track runs, from a 5-second jingle to a full 4-minute song.',
    icon: 'M12 7v5l3 3M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z',
  },
  {
    title: 'Professional Quality',
    text: 'Get full-length, high-quality audio that is ready to share, stream or use in your next project.',
    icon: 'M9 18V6l12-2v12M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zm12-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
  },
] as const;

export function FeatureCards() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h2 id="features-title" className="mb-10 text-center text-3xl font-bold text-white sm:text-4xl">
        Everything you need to make a track
      </h2>
      <ul className="grid gap-6 md:grid-cols-3">
        {features.map((feature) => (
          <li key={feature.title}>
            <Card className="h-full p-6">
              <span
                aria-hidden="true"
                className="mb-4 grid size-12 place-items-center rounded-xl bg-gradient-to-br from-violet-600 to-fuchsia-600"
              >
                <Icon className="size-6 text-white" round d={feature.icon} />
              </span>
              <h3 className="text-xl font-semibold text-white">{feature.title}</h3>
              <p className="mt-2 text-zinc-300">{feature.text}</p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
