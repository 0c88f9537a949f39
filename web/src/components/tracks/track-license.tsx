import { licenseSummaries, TERMS_LICENSE_PATH } from '@tunesmith/shared/license-text';
import type { TrackLicense } from '@tunesmith/shared/ownership';
import { Link } from 'react-router';

/**
 * What the owner may do with a track: its license, written when it was made.
 * A track from before licenses were recorded has the personal one (as its
 * provenance record says).
 */
export function licenseSummary(license: Pick<TrackLicense, 'summary'> | null | undefined): string {
  return license?.summary ?? licenseSummaries.personal;
}

/** The license's summary and a link to the terms' license section. */
export function TrackLicenseLine({
  license,
  id,
  labelled = true,
}: {
  license: Pick<TrackLicense, 'summary'> | null | undefined;
  /** For a control that the line describes (aria-describedby). */
  id?: string;
  /** Starts with "License:"; off where a label already names it. */
  labelled?: boolean;
}) {
  return (
    <p id={id} className="text-sm text-zinc-300">
      {labelled ? <span className="font-medium text-zinc-100">License: </span> : null}
      {licenseSummary(license)}{' '}
      <Link to={TERMS_LICENSE_PATH} className="text-fuchsia-300 underline underline-offset-4">
        License terms
      </Link>
    </p>
  );
}
