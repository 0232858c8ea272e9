export interface StopSignal {
  /** Resolves on the first SIGINT or SIGTERM. */
  received: Promise<NodeJS.Signals>;
  /** Stops listening: the next signal gets Node's default handling. */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM from the moment it is called, so a signal during startup is not lost. */
export function listenForStopSignal(): StopSignal {
  let dispose = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      dispose();
      resolve(signal);
    };
    dispose = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return { received, dispose };
}
