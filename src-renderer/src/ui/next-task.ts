// A yield to the event loop for work done in slices: input, frames and messages run in between.

/** Resolves in a new task (a message, so no timer clamping of nested timeouts). */
export function nextTask(): Promise<void> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
