const identifier = /^[A-Za-z_$][\w$]*$/;

/** The key path of `key` inside the value at `parent` ("" is the document itself). */
export function childPath(parent: string, key: string): string {
  if (!identifier.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

/** The key path of item `index` of the array at `parent`. */
export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** How a key path reads in a message: the document itself has no key. */
export function showPath(path: string): string {
  return path === "" ? "the config" : path;
}
