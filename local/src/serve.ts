/**
 * A local cloud in a process of its own (see startLocalCloudProcess). Takes
 * LocalCloudOptions as JSON in argv[2]; once up, prints one JSON line with
 * url, env, admin and pids; stops on SIGTERM or SIGINT, and when the parent
 * goes away (stdin closes).
 */
import { type LocalCloudOptions, startLocalCloud } from './cloud';

// Same reason as in start.ts: the SDK's Node 22 notice would drown the caller's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const options = JSON.parse(process.argv[2] ?? '{}') as LocalCloudOptions;
try {
  const cloud = await startLocalCloud(options);
  const { url, env, admin, pids } = cloud;
  process.stdout.write(`${JSON.stringify({ url, env, admin, pids })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    cloud.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
