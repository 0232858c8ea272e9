import { ciPackageManager } from "../config/ci.js";
import type { CiConfig } from "../config/types.js";
import { catalogCommands } from "./catalog-commands.js";
import { generatedHeader } from "./header.js";
import { packageManagerCommands } from "./package-manager.js";
import type { RenderedFile } from "./rendered-file.js";
import { yamlScalar } from "./yaml-text.js";

/** A GitHub Actions expression, `${{ ... }}`. */
const expression = (text: string) => `\${{ ${text} }}`;

export const githubWorkflowPath = ".github/workflows/catalog.yml";

/**
 * A GitHub Actions workflow that builds the catalog on pull requests, pushes to the default branch,
 * a daily schedule and by hand, and deploys it to GitHub Pages from the default branch only.
 * The workflow's token can only read; the deploy job alone gets `pages: write` and `id-token: write`.
 */
export function renderGithubWorkflow(ci: CiConfig, configRelPath: string): RenderedFile {
  const manager = ciPackageManager(ci);
  const pm = packageManagerCommands(manager);
  const commands = catalogCommands(pm.exec, configRelPath, "site");
  const setup = [
    "      - uses: actions/setup-node@v4",
    "        with:",
    "          node-version: 20",
    manager === "bun" ? "      - uses: oven-sh/setup-bun@v2" : "          cache: npm",
  ];
  const check =
    ci.verifyCi === false
      ? []
      : [
          "      - name: Check the committed CI files are up to date",
          `        run: ${yamlScalar(commands.check)}`,
        ];
  const lines = [
    generatedHeader(configRelPath),
    "name: catalog",
    "",
    "on:",
    "  push:",
    "  pull_request:",
    "  schedule:",
    '    - cron: "17 4 * * *"',
    "  workflow_dispatch:",
    "",
    "permissions:",
    "  contents: read",
    "",
    "concurrency:",
    `  group: catalog-${expression("github.ref")}`,
    `  cancel-in-progress: ${expression("github.event_name == 'pull_request'")}`,
    "",
    "jobs:",
    "  build:",
    "    # pushes to other branches are covered by their pull requests",
    "    if: github.event_name != 'push' || github.ref_name == github.event.repository.default_branch",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "        with:",
    "          persist-credentials: false",
    ...setup,
    `      - run: ${yamlScalar(pm.install)}`,
    ...check,
    "      - name: Build the catalog",
    `        run: ${yamlScalar(commands.build)}`,
    "      - uses: actions/upload-pages-artifact@v3",
    "        with:",
    "          path: site",
    "",
    "  deploy:",
    "    needs: build",
    "    if: github.event_name == 'schedule' || (github.event_name != 'pull_request' && github.ref_name == github.event.repository.default_branch)",
    "    runs-on: ubuntu-latest",
    "    permissions:",
    "      pages: write",
    "      id-token: write",
    "    environment:",
    "      name: github-pages",
    `      url: ${expression("steps.deployment.outputs.page_url")}`,
    "    concurrency:",
    "      group: catalog-pages",
    "      cancel-in-progress: false",
    "    steps:",
    "      - id: deployment",
    "        uses: actions/deploy-pages@v4",
  ];
  return { path: githubWorkflowPath, content: `${lines.join("\n")}\n` };
}
