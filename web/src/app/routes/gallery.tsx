import type { GallerySort } from '@tunesmith/shared/community';
import { useSearchParams } from 'react-router';
import GalleryBrowser, { GALLERY_SORTS } from '@/features/gallery/components/gallery-browser';
import { pageTitle } from '@/lib/page-title';
import { useTrackMenu } from '../track-menu';

const isSort = (value: string | null): value is GallerySort => GALLERY_SORTS.some((s) => s.value === value);

/** The community gallery with its sorts; the sort is in the address (`?sort=`), so it can be shared. */
export default function GalleryRoute() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('sort');
  const sort: GallerySort = isSort(asked) ? asked : 'new';
  const trackMenu = useTrackMenu();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('Community Gallery')}</title>
      <div className="mb-8 text-center">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">Community Gallery</h1>
        <p className="mt-3 text-zinc-300">Listen to tracks our community created with Tunesmith.</p>
      </div>
      <GalleryBrowser
        sort={sort}
        onSortChange={(next) => setParams(next === 'new' ? {} : { sort: next }, { replace: true })}
        trackMenu={trackMenu}
      />
    </div>
  );
}
