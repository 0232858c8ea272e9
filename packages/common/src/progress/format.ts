import type { BoardSnapshot, RunningTask, TaskEnd } from "./board.js";

const UNITS = ["B", "kB", "MB", "GB", "TB"];

/** Bytes in decimal units, as transfer tools show them: `512 B`, `12.3 MB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
}

/** A running task in one line: `1.2.0 linux/amd64 downloading 12.0 MB/30.0 MB 8.10 MB/s`. */
export function taskText(task: RunningTask): string {
  const parts = [task.name, task.state];
  if (task.bytesDone !== undefined) {
    parts.push(
      task.bytesTotal === undefined
        ? formatBytes(task.bytesDone)
        : `${formatBytes(task.bytesDone)}/${formatBytes(task.bytesTotal)}`,
    );
    if (task.rate !== undefined) parts.push(`${formatBytes(task.rate)}/s`);
  }
  return parts.join(" ");
}

/** The counts: `12/80 done, 1 failed, 4 running`. */
export function countsText(snapshot: BoardSnapshot): string {
  const parts = [`${snapshot.done}/${snapshot.total} done`];
  if (snapshot.failed > 0) parts.push(`${snapshot.failed} failed`);
  parts.push(`${snapshot.running.length} running`);
  return parts.join(", ");
}

/**
 * One plain status line: the counts, then the running tasks, the oldest first, at most `listed`
 * of them (`and N more`), so a line stays readable however wide the run.
 */
export function statusLine(snapshot: BoardSnapshot, listed = 3): string {
  const running = [...snapshot.running].sort((a, b) => a.startedAt - b.startedAt);
  const shown = running.slice(0, listed).map(taskText);
  if (running.length > listed) shown.push(`and ${running.length - listed} more`);
  return shown.length === 0 ? countsText(snapshot) : `${countsText(snapshot)}: ${shown.join("; ")}`;
}

/**
 * What an ended task leaves above the display: `done 1.2.0 linux/amd64 in 3.1 s (bundled)`,
 * `failed 1.2.0 linux/arm64: <its error> (after 0.4 s)`, `stopped 1.3.0 linux/amd64 after 0.2 s`.
 */
export function endLine(end: TaskEnd): string {
  const took = `${end.seconds.toFixed(1)} s`;
  if (end.outcome === "stopped") return `stopped ${end.name} after ${took}`;
  if (end.outcome === "failed")
    return `failed ${end.name}: ${end.detail ?? "no reason given"} (after ${took})`;
  return `done ${end.name} in ${took}${end.detail === undefined ? "" : ` (${end.detail})`}`;
}
