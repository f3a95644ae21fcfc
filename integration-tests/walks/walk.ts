/** One act's walk: the plugin's files (relative to src/) in the order the act first entered them. */
export type Walk = { name: string; files: string[] }

/** The folder a file sits in, relative to src/. */
export function folderOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "."
}

/** How many steps of a walk go from one folder into another. */
export function crossingsOf(files: string[]): number {
  return files.slice(1).filter((file, i) => folderOf(file) !== folderOf(files[i])).length
}
