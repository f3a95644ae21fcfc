import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261126221721 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_approval_one_open_per_session" ON "paybright_approval" ("session_id") WHERE deleted_at IS NULL AND state IN ('approved', 'ordered');`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_paybright_approval_one_open_per_session";`)
  }
}
