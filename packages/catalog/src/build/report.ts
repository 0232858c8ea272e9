/** What `build` did: printed as the summary line, or as JSON with `--format json`. */
export interface BuildReport {
  outDir: string;
  indexes: { label: string; packages: number; files: number }[];
  packages: number;
  pages: number;
  files: number;
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
