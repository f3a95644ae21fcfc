import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261126064536 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" add column if not exists "placement_error" text null, add column if not exists "channel" jsonb null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" drop column if exists "placement_error", drop column if exists "channel";`
    )
  }
}
