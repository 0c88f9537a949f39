/** The parts of the Lambda SDK we use, loaded lazily by background-jobs.ts (a named re-export keeps the chunk small). */
export { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
