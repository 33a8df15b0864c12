// Loaded into the runner's process by bench/load.mjs (`node --import`): answers memory questions
// over the IPC channel, so that the load test can read the V8 heap as well as the RSS. With
// `{ gc: true }` and --expose-gc, a full collection runs first: the heap then holds only what is
// still reachable, which is what a leak makes grow. Does nothing without an IPC channel.

if (typeof process.send === 'function') {
  process.on('message', (message) => {
    if (message?.type !== 'memory') return;
    if (message.gc && typeof globalThis.gc === 'function') globalThis.gc();
    const usage = process.memoryUsage();
    process.send({ type: 'memory', id: message.id, gc: Boolean(message.gc && globalThis.gc), ...usage });
  });
  // The channel must not keep the runner alive once it is asked to stop.
  process.channel?.unref();
}
