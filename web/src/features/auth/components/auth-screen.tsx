import { useState } from 'react';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';
import { Tabs } from '@/components/ui/tabs';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import { SubscribeIntentLine } from './subscribe-intent-line';

type AuthTab = 'signin' | 'signup';

const highlights = [
  {
    title: 'Turn text descriptions into full songs',
    text: 'Describe a genre and a mood, add lyrics if you like, and get a finished track.',
  },
  {
    title: 'Transform and remix existing audio',
    text: 'Upload a recording and restyle it into something new.',
  },
  {
    title: 'Export high-quality tracks ready for streaming',
    text: 'Download polished audio for your videos, podcasts and releases.',
  },
] as const;

function Marketing() {
  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
          Your next song starts{' '}
          <span className="bg-gradient-to-r from-violet-400 to-fuchsia-400 bg-clip-text text-transparent">
            here
          </span>
        </h1>
        <p className="mt-2 max-w-lg text-zinc-300 sm:mt-4 sm:text-lg">
          Sign in to create music with AI, or make a free account in under a minute.
        </p>
      </div>
      {/* On a phone the highlights would push the form below the fold. */}
      <ul className="hidden gap-5 lg:grid">
        {highlights.map((item) => (
          <li key={item.title} className="flex gap-4">
            <span
              aria-hidden="true"
              className="mt-1 grid size-8 shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white"
            >
              <Icon strokeWidth="3" round d="M5 12l5 5L19 7" />
            </span>
            <div>
              <p className="font-semibold text-white">{item.title}</p>
              <p className="text-sm text-zinc-400">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface AuthScreenProps {
  /**
   * A path on this site to go to after signing in, already checked with
   * `safeReturnPath`; a plan chosen on Pricing is named on the card.
   */
  next?: string | null;
}

/**
 * The sign-in and sign-up screen: a marketing column beside the Get Started card.
 * On a phone the column is a short heading above the card, so the form starts in view.
 */
export function AuthScreen({ next }: AuthScreenProps) {
  const [tab, setTab] = useState<AuthTab>('signin');
  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-12 lg:min-h-[calc(100dvh-4rem)] lg:grid-cols-2 lg:items-center lg:gap-16">
      <Marketing />
      <Card className="w-full p-6 sm:p-8">
        <h2 className="text-2xl font-bold text-white">Get Started</h2>
        <p className="mt-1 text-sm text-zinc-300">Create your account or sign in to continue</p>
        <SubscribeIntentLine next={next} />
        <Tabs
          className="mt-6"
          label="Sign in or sign up"
          value={tab}
          onChange={setTab}
          items={[
            { value: 'signin', label: 'Sign In', content: <LoginForm next={next} /> },
            { value: 'signup', label: 'Sign Up', content: <RegisterForm next={next} /> },
          ]}
        />
      </Card>
    </div>
  );
}
