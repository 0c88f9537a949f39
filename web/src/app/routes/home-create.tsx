import { CreatePage } from '@/features/create/components/create-page';
import { MusicLibrary } from '@/features/library/components/music-library';
import { LazyStudioMenu } from '@/features/studio/lazy-studio';
import { pageTitle } from '@/lib/page-title';

/**
 * `/` for a signed-in user: the Create page with the library beside it. A
 * chunk of its own, so a visitor's landing page carries none of the forms.
 */
export default function HomeCreate() {
  return (
    <>
      <title>{pageTitle('Create')}</title>
      <CreatePage
        library={({ createFirst }) => (
          <MusicLibrary
            onCreateFirst={createFirst}
            trackActions={(track, describedBy, onStarted) => (
              <LazyStudioMenu track={track} describedBy={describedBy} onStarted={onStarted} />
            )}
          />
        )}
      />
    </>
  );
}
