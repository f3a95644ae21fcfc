/** Rows per page when a list is read whole. */
const PAGE = 200

/**
 * Every row a list call answers, read a page at a time: the lists a merchant acts on (needs
 * attention, authorizations close to expiry) must never stop at the oldest hundred.
 */
export async function allPages<T>(page: (paging: { skip: number; take: number }) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = []
  for (let skip = 0; ; skip += PAGE) {
    const found = await page({ skip, take: PAGE })
    rows.push(...found)
    if (found.length < PAGE) return rows
  }
}
