import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261128130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paybright_money_record" add column if not exists "said" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paybright_money_record" drop column if exists "said";`)
  }
}
