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

/**
 * The carry's own session (opened after an order change) refused: the first one, as a blink of the
 * database refuses it, or every one while armed.
 */
export function carriedSessionRefused(name: string, once = true): RefusedWrite {
  return {
    name,
    table: "payment_session",
    event: "insert",
    when: "new.data->>'carried_contract' is not null",
    once,
    message: "the database dropped the write",
  }
}

/** Whether a fault armed `once` has refused its write yet (its sequence survives the rollback). */
export async function refusedYet(pg: Knex, name: string): Promise<boolean> {
  return (await pg.raw(`select is_called from paybright_test_${name}`)).rows[0].is_called
}

/** The first insert of an order fails, as a blink of the database fails it: the cart is still to complete. */
export function orderInsertDroppedOnce(name: string): RefusedWrite {
  return { name, table: '"order"', event: "insert", once: true, message: "the database dropped the write" }
}

/**
 * Holds Medusa's writes to `table` that match `when` (a SQL condition on `new`) until the answered
 * function lets them go, as a slow database holds them: a PostgreSQL trigger waits on an advisory
 * lock this connection holds. `heldYet` says whether one such write has reached the trigger.
 */
export async function holdWrites(
  pg: Knex,
  fault: { name: string; table: string; when: string }
): Promise<{ release: () => Promise<void>; heldYet: () => Promise<boolean> }> {
  const trigger = `paybright_test_${fault.name}`
  const key = Math.floor(Math.random() * 2 ** 31)
  const holder = await pg.transaction()
  await holder.raw(`select pg_advisory_xact_lock(${key})`)
  await pg.raw(`
    create sequence if not exists ${trigger};
    select setval('${trigger}', 1, false);
    create or replace function ${trigger}() returns trigger language plpgsql as $$
    begin
      if (${fault.when}) then
        perform nextval('${trigger}');
        perform pg_advisory_xact_lock_shared(${key});
      end if;
      return new;
    end $$;
    create trigger ${trigger} before insert on ${fault.table}
      for each row execute function ${trigger}();`)
  return {
    release: async () => {
      if (!holder.isCompleted()) await holder.commit()
      await pg.raw(`drop trigger if exists ${trigger} on ${fault.table}`)
    },
    heldYet: async () => (await pg.raw(`select is_called from ${trigger}`)).rows[0].is_called,
  }
}
