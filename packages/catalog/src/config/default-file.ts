/** The config file name commands look for in the working directory (apart: `--help` needs no more). */
export const DEFAULT_CONFIG_FILE = "catalog.config.json";
