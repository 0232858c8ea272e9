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
  return `built ${report.packages} packages from ${report.indexes.length} indexes into ${report.outDir} in ${seconds} s`;
}
