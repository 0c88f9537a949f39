import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * Where events that could not be delivered or handled end up: the scheduled
 * analytics run and the execution-ended rule (EventBridge target failures, and
 * their functions' failed asynchronous invocations). Kept 14 days to look at
 * and redrive; its depth is what an operator watches.
 */
export class FailedEvents extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    NagSuppressions.addResourceSuppressions(this.queue, [
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason:
          'This queue is itself the dead-letter queue; nothing consumes it automatically, an operator reads and redrives it.',
      },
    ]);
  }
}
