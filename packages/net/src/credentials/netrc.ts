/** One `machine` (or `default`) block of a netrc file. */
export interface NetrcEntry {
  /** Undefined for the `default` block. */
  machine: string | undefined;
  login?: string;
  password?: string;
  account?: string;
}

interface Token {
  value: string;
  /** Where the token's line ends, for skipping `macdef` bodies. */
  end: number;
}

/** Splits netrc text into tokens: whitespace separated, `"..."` quoting with `\` escapes, `#` comments. */
function* tokens(text: string): Generator<Token, void, number | undefined> {
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    let value = "";
    if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      i++;
    } else {
      while (i < text.length && !/\s/.test(text[i] as string)) {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
    }
    // The consumer may hand back a new position (after a macdef body) to resume from.
    const resume = yield { value, end: i };
    if (resume !== undefined) i = resume;
  }
}

/** The offset just past the first empty line at or after `from` (where a macdef body ends). */
function endOfMacro(text: string, from: number): number {
  const lineEnd = text.indexOf("\n", from);
  if (lineEnd < 0) return text.length;
  const blank = /\n[ \t]*\r?\n/g;
  blank.lastIndex = lineEnd;
  const match = blank.exec(text);
  return match ? match.index + match[0].length : text.length;
}

/** Parses netrc text into its blocks, in file order. Unknown keywords are skipped with their value. */
export function parseNetrc(text: string): NetrcEntry[] {
  const entries: NetrcEntry[] = [];
  let current: NetrcEntry | undefined;
  const iterator = tokens(text);
  let step = iterator.next();
  const nextValue = (): string | undefined => {
    step = iterator.next();
    return step.done ? undefined : step.value.value;
  };
  while (!step.done) {
    const { value: keyword, end } = step.value;
    switch (keyword) {
      case "machine": {
        current = { machine: nextValue() ?? "" };
        entries.push(current);
        break;
      }
      case "default":
        current = { machine: undefined };
        entries.push(current);
        break;
      case "login":
      case "password":
      case "account": {
        const value = nextValue();
        if (current && value !== undefined) current[keyword] = value;
        break;
      }
      case "macdef": {
        // A macro name, then its body up to the next empty line: none of it is a credential.
        current = undefined;
        nextValue();
        step = iterator.next(endOfMacro(text, step.done ? end : step.value.end));
        continue;
      }
      default:
        break;
    }
    step = iterator.next();
  }
  return entries;
}

/** The first `machine` block naming `host` exactly (case-insensitively); `default` never matches. */
export function findNetrcMachine(entries: NetrcEntry[], host: string): NetrcEntry | undefined {
  const wanted = host.toLowerCase();
  return entries.find((entry) => entry.machine !== undefined && entry.machine.toLowerCase() === wanted);
}
