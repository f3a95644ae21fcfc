import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122181231 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_settings" drop constraint if exists "paybright_settings_provider_id_unique";`
    )
    this.addSql(
      `create table if not exists "paybright_settings" ("id" text not null, "provider_id" text not null, "overrides" jsonb not null default '{}', "encrypted_secrets" jsonb not null default '{}', "version" integer not null default 1, "updated_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_settings_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_settings_provider_id_unique" ON "paybright_settings" ("provider_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_settings_deleted_at" ON "paybright_settings" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paybright_settings" cascade;`)
  }
}
