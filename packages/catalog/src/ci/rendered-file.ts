/** One generated file: its path relative to the config file's directory (always `/`-separated)
 *  and its exact content. */
export interface RenderedFile {
  path: string;
  content: string;
}
