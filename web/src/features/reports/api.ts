import { useMutation } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { ReportRequest } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

/** What is reported: a track by its id, or a public profile by its handle. */
export type ReportSubject = { kind: 'track'; id: string } | { kind: 'profile'; handle: string };

export function useReport(subject: ReportSubject) {
  return useMutation({
    mutationFn: (input: ReportRequest) =>
      subject.kind === 'track'
        ? apiRequest(communityCalls.reportTrack, { params: { id: subject.id }, body: input })
        : apiRequest(communityCalls.reportCreator, { params: { handle: subject.handle }, body: input }),
  });
}
