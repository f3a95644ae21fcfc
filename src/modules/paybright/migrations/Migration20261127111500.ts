import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261127111500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" add column if not exists "card_confirmed_at" timestamptz null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paybright_approval" drop column if exists "card_confirmed_at";`)
  }
}
