import type { Prng } from "./prng.js";

const WORDS = (
  "install binary release archive platform checksum signature mirror registry command option flag " +
  "config file directory path shell server client request response cache index package version tag " +
  "build test deploy run stream parse format output input network socket thread memory fast small " +
  "secure portable static linked musl glibc darwin linux windows arm amd upstream project license"
).split(" ");

function words(rng: Prng, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(rng.pick(WORDS));
  return out.join(" ");
}

function paragraph(rng: Prng): string {
  const parts = [words(rng, 8 + rng.int(10))];
  parts.push(`\`${rng.pick(WORDS)}-${rng.pick(WORDS)}\``, words(rng, 4 + rng.int(6)));
  parts.push(`**${rng.pick(WORDS)}**`, words(rng, 3 + rng.int(5)));
  parts.push(`[${rng.pick(WORDS)} docs](https://docs.example.org/${rng.pick(WORDS)}/${rng.int(1000)})`);
  return `${parts.join(" ")}.\n`;
}

function list(rng: Prng, ordered: boolean): string {
  const items = 3 + rng.int(4);
  let out = "";
  for (let i = 1; i <= items; i++) out += `${ordered ? `${i}.` : "-"} ${words(rng, 3 + rng.int(8))}\n`;
  return out;
}

function codeBlock(rng: Prng): string {
  const lines = 2 + rng.int(6);
  let body = "";
  for (let i = 0; i < lines; i++)
    body += `${rng.pick(WORDS)} --${rng.pick(WORDS)} ${rng.pick(WORDS)}.${rng.int(99)}\n`;
  return `\`\`\`${rng.pick(["sh", "toml", "json", ""])}\n${body}\`\`\`\n`;
}

function table(rng: Prng): string {
  const rows = 2 + rng.int(4);
  let out = "| Option | Default | Meaning |\n|---|---|---|\n";
  for (let i = 0; i < rows; i++) out += `| \`--${rng.pick(WORDS)}\` | ${rng.int(100)} | ${words(rng, 4)} |\n`;
  return out;
}

function block(rng: Prng, section: number): string {
  switch (rng.int(6)) {
    case 0:
      return `## ${words(rng, 2)} ${section}\n`;
    case 1:
      return list(rng, rng.next() < 0.3);
    case 2:
      return codeBlock(rng);
    case 3:
      return table(rng);
    default:
      return paragraph(rng);
  }
}

/**
 * A Markdown README of exactly `bytes` bytes (ASCII; at least the title and summary): headings,
 * paragraphs with inline code, emphasis and links, lists, fenced code blocks and tables.
 */
export function syntheticReadme(rng: Prng, title: string, summary: string, bytes: number): string {
  const blocks = [`# ${title}\n`, `${summary}\n`, "## Install\n", `\`\`\`sh\npkg install ${title}\n\`\`\`\n`];
  let size = blocks.reduce((sum, b) => sum + b.length + 1, 0);
  for (let section = 1; ; section++) {
    const next = block(rng, section);
    if (size + next.length + 1 > bytes) break;
    blocks.push(next);
    size += next.length + 1;
  }
  let text = blocks.join("\n");
  // fill the rest with one plain paragraph of filler words, cut to the exact size
  const rest = bytes - text.length - 2;
  if (rest > 0) text += `\n${words(rng, Math.ceil(rest / 3) + 1).slice(0, rest)}\n`;
  return text.padEnd(bytes, "\n");
}
