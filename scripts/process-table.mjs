import fs from "node:fs"

/**
 * The live processes of this machine, read from /proc: `{ pid, ppid, pgrp }` for each one that
 * is not a zombie. Empty where /proc does not exist.
 */
export function processTable() {
  let names
  try {
    names = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
  const table = []
  for (const name of names) {
    try {
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after it.
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (state !== "Z") table.push({ pid: Number(name), ppid: Number(ppid), pgrp: Number(pgrp) })
    } catch {
      // Gone while being read.
    }
  }
  return table
}

/** Every live descendant of `root`: children, their children, and so on. */
export function descendantsOf(root, table = processTable()) {
  const found = []
  const visit = (pid) => {
    for (const entry of table) {
      if (entry.ppid === pid) {
        found.push(entry.pid)
        visit(entry.pid)
      }
    }
  }
  visit(root)
  return found
}
