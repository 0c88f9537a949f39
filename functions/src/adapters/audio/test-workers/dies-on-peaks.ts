/**
 * A thread for the pool's tests that runs tasks as the real one does, but
 * stops its thread (as a crash would) when asked for peaks of a silent track.
 */
import { parentPort } from 'node:worker_threads';
import { type AudioTask, carryError, runAudioTask } from '../audio-tasks';

const port = parentPort;
port?.on('message', async ({ id, task }: { id: number; task: AudioTask }) => {
  if (task.kind === 'peaks' && task.audio.planes.every((plane) => plane.every((x) => x === 0)))
    process.exit(3);
  try {
    port.postMessage({ id, ok: true, value: await runAudioTask(task) });
  } catch (error) {
    port.postMessage({ id, ok: false, error: carryError(error) });
  }
});
