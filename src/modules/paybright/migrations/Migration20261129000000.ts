import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Void is the one word for voiding a contract at the lender: an orphan so voided reads `voided`,
 * its event is `approval.voided`, and the sentences kept as facts (`said`) name their new codes, so
 * the admin still writes the rows stored before in its language.
 */
const CODES: [before: string, after: string][] = [
  ["approval_released", "approval_voided"],
  ["orphan_released_after", "orphan_voided_after"],
  ["contract_not_released", "contract_not_voided"],
  ["medusa_refused_release_resolution", "medusa_refused_void_resolution"],
]

export class Migration20261129000000 extends Migration {
  override async up(): Promise<void> {
    this.moveState("released", "voided")
    this.moveEvents("approval.released", "approval.voided")
    for (const [before, after] of CODES) this.moveCode(before, after)
  }

  override async down(): Promise<void> {
    this.moveState("voided", "released")
    this.moveEvents("approval.voided", "approval.released")
    for (const [before, after] of CODES) this.moveCode(after, before)
  }

  /** The check constraint holds the states a row may take: dropped, the rows moved, then put back with the new one. */
  private moveState(from: string, to: string): void {
    const states = ["approved", "ordered", "orphaned", to, "handled"].map((state) => `'${state}'`).join(", ")
    this.addSql(
      `alter table if exists "paybright_approval" drop constraint if exists "paybright_approval_state_check";`
    )
    this.addSql(`update "paybright_approval" set "state" = '${to}' where "state" = '${from}';`)
    this.addSql(
      `alter table if exists "paybright_approval" add constraint "paybright_approval_state_check" check("state" in (${states}));`
    )
  }

  private moveEvents(from: string, to: string): void {
    this.addSql(`update "paybright_event" set "kind" = '${to}' where "kind" = '${from}';`)
  }

  /** A code is a whole JSON string wherever a sentence keeps it, nested sentences included. */
  private moveCode(from: string, to: string): void {
    this.addSql(
      `update "paybright_event" set "details" = replace("details"::text, '"${from}"', '"${to}"')::jsonb where "details"::text like '%"${from}"%';`
    )
    this.addSql(
      `update "paybright_money_record" set "said" = replace("said"::text, '"${from}"', '"${to}"')::jsonb where "said"::text like '%"${from}"%';`
    )
  }
}
