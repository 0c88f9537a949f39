/** The parts of the Step Functions SDK we use, loaded lazily by step-functions.ts (a named re-export keeps the chunk small). */
export {
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
