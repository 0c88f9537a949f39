/**
 * Stands in for `bowser` in Lambda bundles (lambda-bundle.ts): the SDK's core
 * package re-exports its browser user-agent parser, which imports bowser, but
 * a Node.js client never calls it.
 */
export default {};
