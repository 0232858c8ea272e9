import {
  accept,
  type ConformanceCase,
  config,
  type JsonObject,
  type SchemaRelation,
  sources,
} from "../support/config-case.js";

/*
 * "The config file carries no credentials" (catalog-config.md, Authentication): every URL-valued
 * key refuses a user name or password with INVALID_TYPE naming the key, and no message, whatever
 * the value is refused for, shows what could be one.
 */

const carries = (keyPath: string) =>
  `${keyPath} carries credentials (a user name or password before "@"); the config file carries none`;
const gitCarries = (keyPath: string) =>
  `${keyPath} carries credentials (a password, or a user name or token on an http(s) remote, before "@")`;

function refuseShowing(
  rule: string,
  json: JsonObject,
  keyPath: string,
  message: string,
  notShown: string[],
  schema?: SchemaRelation,
): ConformanceCase {
  return {
    rule,
    input: { json },
    expect: { refused: { code: "INVALID_TYPE", keyPath, message, notShown } },
    ...(schema && { schema }),
  };
}

const urlSource = (url: string) => sources({ url });
const gitSource = (git: string) => sources({ git });
const nav = (link: string) => config({ nav: [{ text: "x", link }] });
const footer = (link: string) =>
  config({
    footer: {
      links: [
        { text: "ok", link: "/ok" },
        { text: "x", link },
      ],
    },
  });
const docsNav = (link: string) => config({ docs: "docs", docsNav: [{ text: "Docs", link }] });
const ownerUrl = (url: string) => config({ ownerUrl: url });
const sourceOwnerUrl = (url: string) => sources({ path: "a" }, { path: "b", ownerUrl: url });

/** sources[].url: the https URL of an index. */
const sourceUrls: ConformanceCase[] = [
  ...(
    [
      ["a user and a password", "https://reader:hunter2-secret@index.example.com/acme", "hunter2-secret"],
      ["a user name alone", "https://token-abc123@index.example.com/", "token-abc123"],
      [
        "credentials on http, refused before the scheme is judged",
        "http://u:pw-over-http@example.com",
        "pw-over-http",
      ],
      ["credentials in a URL that does not parse", "https://u:pw with space@exa mple.com", "pw with space"],
      ["credentials behind a backslash", "https:\\\\u:pw-backslash@example.com", "pw-backslash"],
    ] as const
  ).map(([what, url, secret]) =>
    refuseShowing(
      `sources[].url with credentials is refused: ${what}`,
      urlSource(url),
      "sources[0].url",
      carries("sources[0].url"),
      [secret],
      // the schema's pattern sees only the "https://" at the start
      url.startsWith("https://") ? { accepts: "sources[].url" } : undefined,
    ),
  ),
  accept(
    "sources[].url: an @ in the path is not a credential",
    urlSource("https://example.com/@acme/index"),
    {
      parsed: () => ({ sources: [{ url: "https://example.com/@acme/index" }] }),
    },
  ),
];

/** The other URL-valued keys, each as sources[].url: [rule, json, key path, user, password, schema]. */
const otherUrls: (readonly [string, JsonObject, string, string, string, SchemaRelation?])[] = [
  [
    "siteUrl: a user and a password",
    config({ siteUrl: "https://deployer:site-pw-1@tools.example.com" }),
    "siteUrl",
    "deployer",
    "site-pw-1",
    { accepts: "siteUrl" },
  ],
  [
    "siteUrl: a token alone, under a base path",
    config({ siteUrl: "https://site-token-2@tools.example.com/catalog/" }),
    "siteUrl",
    "site-token-2",
    "site-token-2",
    { accepts: "siteUrl" },
  ],
  [
    "siteUrl: credentials in a URL that does not parse",
    config({ siteUrl: "https://deployer:site pw 3@exa mple.com" }),
    "siteUrl",
    "deployer",
    "site pw 3",
    { accepts: "siteUrl" },
  ],
  [
    "nav[].link: an absolute URL",
    nav("https://navuser:nav-pw-1@example.com/x"),
    "nav[0].link",
    "navuser",
    "nav-pw-1",
    { accepts: "nav links" },
  ],
  [
    "nav[].link: a protocol-relative //user:password@host",
    nav("//navuser:nav-pw-2@evil.example/"),
    "nav[0].link",
    "navuser",
    "nav-pw-2",
    { accepts: "nav links" },
  ],
  [
    "nav[].link: a tab the parser would strip from //user:password@host",
    nav("/\t/navuser:nav-pw-3@evil.example"),
    "nav[0].link",
    "navuser",
    "nav-pw-3",
    { accepts: "nav links" },
  ],
  [
    "footer.links[].link: a token",
    footer("https://footer-token-1@example.com/src"),
    "footer.links[1].link",
    "footer-token-1",
    "footer-token-1",
    { accepts: "nav links" },
  ],
  [
    "docsNav[].link: an absolute URL with credentials, refused as that",
    docsNav("https://docsuser:docs-pw-1@example.com/docs/"),
    "docsNav[0].link",
    "docsuser",
    "docs-pw-1",
    { agrees: "docsNav[].link" },
  ],
  [
    "ownerUrl: a user and a password",
    ownerUrl("https://owneruser:owner-pw-1@forge.example.com/{login}"),
    "ownerUrl",
    "owneruser",
    "owner-pw-1",
    { accepts: "ownerUrl" },
  ],
  [
    "sources[].ownerUrl: a token",
    sourceOwnerUrl("https://owner-token-2@forge.example.com/{login}"),
    "sources[1].ownerUrl",
    "owner-token-2",
    "owner-token-2",
    { accepts: "ownerUrl" },
  ],
];

/** sources[].git: a token or password is refused, an ssh login name is not. */
const gitRemotes: ConformanceCase[] = [
  ...(
    [
      [
        "an https remote with a user and a token",
        "https://gituser:git-token-1@example.com/acme/index.git",
        ["gituser", "git-token-1"],
      ],
      [
        "an https remote with a token alone",
        "https://git-token-2@example.com/acme/index.git",
        ["git-token-2"],
      ],
      [
        "an http remote in capitals with a token",
        "HTTP://git-token-3@example.com/acme/index.git",
        ["git-token-3"],
      ],
      [
        "an ssh URL with a password",
        "ssh://gituser:ssh-pw-4@example.com/acme/index.git",
        ["gituser", "ssh-pw-4"],
      ],
      [
        "an scp-like remote with a password",
        "gituser:scp-pw-5@example.com:acme/index.git",
        ["gituser", "scp-pw-5"],
      ],
    ] as const
  ).map(([what, git, secrets]) =>
    refuseShowing(
      `sources[].git with credentials is refused: ${what}`,
      gitSource(git),
      "sources[0].git",
      gitCarries("sources[0].git"),
      [...secrets],
    ),
  ),
  ...[
    "ssh://git@example.com/acme/index.git",
    "git@github.com:acme/index.git",
    "git://example.com/acme/index.git",
    "https://example.com/@acme/index.git",
  ].map((git) =>
    accept(
      `sources[].git: ${JSON.stringify(git)} is kept as written (a login name is no credential)`,
      gitSource(git),
      {
        parsed: () => ({ sources: [{ kind: "git", git }] }),
      },
    ),
  ),
];

/** Values refused for another reason whose text could still hold a user name or password before
 *  an "@" (no "//", so no parser reads it as one): the message shows "***" in its place. */
const redacted: ConformanceCase[] = [
  refuseShowing(
    "siteUrl without a scheme shows user:password@ as ***",
    config({ siteUrl: "deployer:site-pw-4@example.com" }),
    "siteUrl",
    'siteUrl must be an absolute http or https URL, not "***@example.com"',
    ["deployer", "site-pw-4"],
    { accepts: "siteUrl" },
  ),
  refuseShowing(
    "sources[].url without a scheme shows user:password@ as ***",
    urlSource("reader:url-pw-1@index.example.com"),
    "sources[0].url",
    'sources[0].url must be an https:// URL, not "***@index.example.com"',
    ["reader", "url-pw-1"],
  ),
  refuseShowing(
    "nav[].link without a scheme shows user:password@ as ***",
    nav("navuser:nav-pw-4@example.com"),
    "nav[0].link",
    'nav[0].link must be an absolute http(s) URL or a path starting with a single "/", not "***@example.com"',
    ["navuser", "nav-pw-4"],
    { accepts: "nav links" },
  ),
  refuseShowing(
    "footer.links[].link without a scheme shows user:password@ as ***",
    footer("footuser:footer-pw-2@example.com/src"),
    "footer.links[1].link",
    'not "***@example.com/src"',
    ["footuser", "footer-pw-2"],
    { accepts: "nav links" },
  ),
  refuseShowing(
    "docsNav[].link without a scheme shows user:password@ as ***",
    docsNav("docsuser:docs-pw-2@example.com/docs/"),
    "docsNav[0].link",
    'docsNav[0].link must be /docs/ or a path below it, not "***@example.com/docs/"',
    ["docsuser", "docs-pw-2"],
    { agrees: "docsNav[].link" },
  ),
  refuseShowing(
    "ownerUrl without a scheme shows user:password@ as ***",
    ownerUrl("owneruser:owner-pw-3@forge.example.com/{login}"),
    "ownerUrl",
    'ownerUrl must be an absolute http or https URL template, not "***@forge.example.com/{login}"',
    ["owneruser", "owner-pw-3"],
  ),
  refuseShowing(
    "sources[].ownerUrl without {login} shows user:password@ as ***",
    sourceOwnerUrl("owneruser:owner-pw-4@forge.example.com/users"),
    "sources[1].ownerUrl",
    'and "***@forge.example.com/users" has it 0 times',
    ["owneruser", "owner-pw-4"],
  ),
  refuseShowing(
    "a mailto: nav link is no credential, and its address is shown as ***",
    nav("mailto:team@example.com"),
    "nav[0].link",
    'must be an absolute http(s) URL or a path starting with a single "/", not "***@example.com"',
    ["team@"],
    { accepts: "nav links" },
  ),
];

const notCredentials: ConformanceCase[] = [
  accept("siteUrl: an @ in the path is not a credential", config({ siteUrl: "https://example.com/@acme/" }), {
    parsed: () => ({ siteUrl: "https://example.com/@acme/" }),
  }),
  accept(
    "nav[].link: an @ in a site path or a query is not a credential",
    config({
      nav: [
        { text: "a", link: "/people/@acme" },
        { text: "b", link: "https://example.com/?from=a@b" },
      ],
    }),
    { parsed: () => ({ nav: [{ link: "/people/@acme" }, { link: "https://example.com/?from=a@b" }] }) },
  ),
];

export const credentialCases: ConformanceCase[] = [
  ...sourceUrls,
  ...otherUrls.map(([rule, json, keyPath, user, password, schema]) =>
    refuseShowing(
      `${rule}: refused as carrying credentials`,
      json,
      keyPath,
      carries(keyPath),
      [user, password],
      schema,
    ),
  ),
  ...gitRemotes,
  ...redacted,
  ...notCredentials,
];
