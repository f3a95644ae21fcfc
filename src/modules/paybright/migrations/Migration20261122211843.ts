import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122211843 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paybright_approval" add column if not exists "lender_result" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paybright_approval" drop column if exists "lender_result";`)
  }
}
