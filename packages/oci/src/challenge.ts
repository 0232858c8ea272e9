/** One challenge of a `WWW-Authenticate` header: the scheme (lower-cased) and its parameters. */
export interface Challenge {
  scheme: string;
  /** Parameter names lower-cased; values unquoted. */
  params: Record<string, string>;
}

const tokenChar = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
const tokenLike = /[!#$%&'*+.^_`|~0-9A-Za-z/=-]/;

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? "";
  }
  skip(chars: RegExp): void {
    while (!this.done && chars.test(this.peek())) this.pos++;
  }
  token(pattern = tokenChar): string {
    const start = this.pos;
    this.skip(pattern);
    return this.text.slice(start, this.pos);
  }
  quoted(): string {
    let value = "";
    this.pos++; // opening quote
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === "\\") this.pos++;
      value += this.peek();
      this.pos++;
    }
    this.pos++; // closing quote
    return value;
  }
}

/**
 * Parses a `WWW-Authenticate` value (RFC 9110 §11.6.1), which may hold several challenges:
 * `Bearer realm="https://auth/token",service="reg",scope="repository:a:pull,push", Basic realm="x"`.
 */
export function parseChallenges(header: string): Challenge[] {
  const scanner = new Scanner(header);
  const challenges: Challenge[] = [];
  while (!scanner.done) {
    scanner.skip(/[\s,]/);
    const scheme = scanner.token();
    if (!scheme) {
      scanner.pos++; // not a token: skip the stray character
      continue;
    }
    const challenge: Challenge = { scheme: scheme.toLowerCase(), params: {} };
    challenges.push(challenge);
    scanner.skip(/[ \t]/);
    while (!scanner.done) {
      const start = scanner.pos;
      scanner.skip(/[\s,]/);
      const name = scanner.token();
      scanner.skip(/[ \t]/);
      if (!name || scanner.peek() !== "=") {
        // the next challenge's scheme (or a token68, which these schemes do not use)
        scanner.pos = name ? start : scanner.pos + 1;
        if (name) break;
        continue;
      }
      scanner.pos++;
      scanner.skip(/[ \t]/);
      const value = scanner.peek() === '"' ? scanner.quoted() : scanner.token(tokenLike);
      challenge.params[name.toLowerCase()] = value;
      scanner.skip(/[ \t]/);
    }
  }
  return challenges;
}
