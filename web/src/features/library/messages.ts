/** Toast and page texts of the library, verbatim from the specification (spec 1 sections 2 and 8). */
export const libraryMessages = {
  accessDeniedTitle: 'Access Denied',
  accessDenied: 'Please log in to view your library.',
  updatedTitle: 'Track updated',
  updateFailedTitle: 'Update failed',
  titleUpdateFailed: 'Could not update track title.',
  visibilityUpdateFailed: 'Could not update track visibility.',
  deletedTitle: 'Track deleted',
  deleteFailedTitle: 'Delete failed',
  deleteFailed: 'Could not delete track. Please try again.',
} as const;
