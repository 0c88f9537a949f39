// The one formatter, shared with the share documents written on the server (decision 026).
export { trackTypeName } from '@tunesmith/shared/track-text';
