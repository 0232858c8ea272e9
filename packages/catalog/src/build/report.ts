/** What `build` did: printed as the summary line, or as JSON with `--format json`. */
export interface BuildReport {
  outDir: string;
  indexes: { label: string; packages: number; files: number }[];
  packages: number;
  pages: number;
  files: number;
  /** Package pages rendered by this build, and kept from the previous output (same key). */
  packagePages: { rendered: number; reused: number };
  /** Packages read from their source, and reused from the previous build (same root digest). */
  packageData: { read: number; reused: number };
  /** Files written (or linked) by this build, kept from the previous output, and removed from it. */
  fileChanges: { written: number; kept: number; removed: number };
  warnings: string[];
  durationMs: number;
}

export function summaryLine(report: BuildReport): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const packages = plural(report.packages, "package", "packages");
  const indexes = plural(report.indexes.length, "index", "indexes");
  const warnings =
    report.warnings.length > 0 ? `, ${plural(report.warnings.length, "warning", "warnings")}` : "";
  return `built ${packages} from ${indexes} into ${report.outDir} in ${seconds} s${warnings}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a build onto a previous output did: "read 1 of 10000 packages, rendered 1 page, wrote 9 files". */
export function changesLine(report: BuildReport): string {
  const { packageData, packagePages, fileChanges } = report;
  const removed = fileChanges.removed > 0 ? `, removed ${fileChanges.removed}` : "";
  return (
    `read ${packageData.read} of ${plural(report.packages, "package", "packages")}, ` +
    `rendered ${plural(packagePages.rendered, "package page", "package pages")}, ` +
    `wrote ${plural(fileChanges.written, "file", "files")}${removed}`
  );
}
