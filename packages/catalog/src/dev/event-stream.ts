import type { IncomingMessage, ServerResponse } from "node:http";

export interface DevEvent {
  name: "reload" | "error";
  /** Sent JSON-encoded, so any text stays on one `data:` line. */
  data: string;
}

/** Server-Sent Events to every open page; a page that connects late is sent the pending error, if any. */
export class EventStream {
  readonly #clients = new Set<ServerResponse>();
  #pendingError: DevEvent | undefined;

  attach(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    response.write("retry: 1000\n\n");
    if (this.#pendingError !== undefined) response.write(frame(this.#pendingError));
    this.#clients.add(response);
    request.on("close", () => this.#clients.delete(response));
  }

  /** A successful rebuild clears the pending error; a failed one becomes it. */
  send(event: DevEvent): void {
    this.#pendingError = event.name === "error" ? event : undefined;
    for (const client of this.#clients) client.write(frame(event));
  }

  closeAll(): void {
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

function frame(event: DevEvent): string {
  return `event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
