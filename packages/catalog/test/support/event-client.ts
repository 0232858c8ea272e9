import { get, type IncomingMessage } from "node:http";

export interface ServerEvent {
  name: string;
  data: string;
}

export interface EventClient {
  /** The next event (of `name`, skipping others), in arrival order. */
  next(name?: string): Promise<ServerEvent>;
  close(): void;
}

/** A minimal Server-Sent Events reader over a real HTTP connection. */
export async function openEvents(url: string): Promise<EventClient> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, resolve).once("error", reject);
  });
  if (response.statusCode !== 200 || !response.headers["content-type"]?.startsWith("text/event-stream")) {
    throw new Error(`${url}: ${response.statusCode} ${response.headers["content-type"]}`);
  }
  const queue: ServerEvent[] = [];
  const waiters: Array<() => void> = [];
  let buffer = "";
  response.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (name !== undefined && data !== undefined) queue.push({ name, data: JSON.parse(data) as string });
      end = buffer.indexOf("\n\n");
    }
    for (const wake of waiters.splice(0)) wake();
  });
  let ended = false;
  response.once("close", () => {
    ended = true;
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    async next(name) {
      for (;;) {
        const event = queue.shift();
        if (event === undefined && ended) throw new Error(`${url}: the event stream closed`);
        if (event === undefined) await new Promise<void>((resolve) => waiters.push(resolve));
        else if (name === undefined || event.name === name) return event;
      }
    },
    close() {
      response.destroy();
    },
  };
}
