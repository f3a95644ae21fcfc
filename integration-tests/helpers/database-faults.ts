import type { Knex } from "@medusajs/framework/mikro-orm/knex"

export type RefusedWrite = {
  /** Names the trigger, its function and its sequence: one fault of a test, unique in the database. */
  name: string
  /** Medusa's own table, as SQL (`payment`, `"order"`, …). */
  table: string
  event: "insert" | "update" | "delete"
  /** A SQL condition on `new` (or `old`): the rows whose write fails. */
  when?: string
  /** Fails the first such write only (a dropped write), or every one while armed (a database refusing writes). */
  once: boolean
  message: string
}

/**
 * Makes Medusa's own writes fail where they fail in life: a PostgreSQL trigger on its table that
 * raises, counted by a sequence, which survives the transaction the raise rolls back. Answers the
 * function that takes the fault away.
 */
export async function refuseWrites(pg: Knex, fault: RefusedWrite): Promise<() => Promise<void>> {
  const trigger = `paybright_test_${fault.name}`
  const counted = fault.once ? `and nextval('${trigger}') = 1` : ""
  await pg.raw(`
    create sequence if not exists ${trigger};
    select setval('${trigger}', 1, false);
    create or replace function ${trigger}() returns trigger language plpgsql as $$
    begin
      if (${fault.when ?? "true"}) ${counted} then
        raise exception '${fault.message.replace(/'/g, "''")}';
      end if;
      return ${fault.event === "delete" ? "old" : "new"};
    end $$;
    create trigger ${trigger} before ${fault.event} on ${fault.table}
      for each row execute function ${trigger}();`)
  return async () => {
    await pg.raw(`drop trigger if exists ${trigger} on ${fault.table}`)
  }
}

/** Runs `during` while Medusa's writes fail as `fault` says, and takes the fault away after: answers what `during` answered. */
export async function whileRefusingWrites<T>(pg: Knex, fault: RefusedWrite, during: () => Promise<T>): Promise<T> {
  const restore = await refuseWrites(pg, fault)
  try {
    return await during()
  } finally {
    await restore()
  }
}

/** The first insert of an order fails, as a blink of the database fails it: the cart is still to complete. */
export function orderInsertDroppedOnce(name: string): RefusedWrite {
  return { name, table: '"order"', event: "insert", once: true, message: "the database dropped the write" }
}
