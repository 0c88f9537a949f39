import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';

/**
 * The landing page's first screen. It fills the screen below the header, so
 * the gallery, whose size is known only once its tracks answer (none on a new
 * site), starts below the fold: what it does as it arrives moves nothing the
 * visitor is looking at.
 */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="mx-auto flex min-h-[calc(100svh-4rem)] max-w-5xl flex-col justify-center px-4 pt-20 pb-16 text-center sm:px-6 sm:pt-28"
    >
      <p className="mx-auto mb-6 inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-1.5 text-sm text-zinc-200">
        <span aria-hidden="true" className="size-2 rounded-full bg-fuchsia-400" />
        From idea to finished track in 30-60 seconds
      </p>
      <h1 id="hero-title" className="text-5xl font-extrabold tracking-tight text-white sm:text-7xl">
        Create Music with{' '}
        <span className="bg-gradient-to-r from-violet-400 via-fuchsia-400 to-pink-400 bg-clip-text text-transparent">
          AI
        </span>
      </h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-zinc-300 sm:text-xl">
        Describe a sound with genre tags, add your own lyrics or leave it instrumental, and Tunesmith writes
        the music. You can also upload a song and remix it into a new style.
      </p>
      <div className="mt-10 flex justify-center">
        <Link to="/auth" className={buttonClasses('primary', 'lg', 'px-8')}>
          Start Creating Music
        </Link>
      </div>
    </section>
  );
}
