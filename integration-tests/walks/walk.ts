/** One act's walk: the plugin's files (relative to src/) in the order the act first entered them. */
export type Walk = { name: string; files: string[] }

/** The folder a file sits in, relative to src/. */
export function folderOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "."
}

/**
 * The folder boundaries a walk crosses: each pair of folders it steps between, once however often
 * it steps between them, as a reader learns a boundary once.
 */
export function boundariesOf(files: string[]): string[] {
  const boundaries = new Set<string>()
  files.slice(1).forEach((file, i) => {
    const pair = [folderOf(files[i]), folderOf(file)].sort()
    if (pair[0] !== pair[1]) boundaries.add(pair.join(" | "))
  })
  return [...boundaries]
}

export function crossingsOf(files: string[]): number {
  return boundariesOf(files).length
}
