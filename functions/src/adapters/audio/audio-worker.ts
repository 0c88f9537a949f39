/**
 * A worker thread of the audio pool (audio-workers.ts): one task at a time,
 * each answered with its result or its error under the task's id.
 */
import { parentPort } from 'node:worker_threads';
import { type AudioTask, carryError, runAudioTask } from './audio-tasks';

if (!parentPort) throw new Error('audio-worker runs as a worker thread');
const port = parentPort;

port.on('message', async ({ id, task }: { id: number; task: AudioTask }) => {
  try {
    const value = await runAudioTask(task);
    // The packets' buffers move to the pool rather than being copied.
    const transfer =
      task.kind === 'opus' && value ? (value as { packets: Uint8Array[] }).packets.map((p) => p.buffer) : [];
    port.postMessage({ id, ok: true, value }, transfer as ArrayBuffer[]);
  } catch (error) {
    port.postMessage({ id, ok: false, error: carryError(error) });
  }
});
