import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122180947 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "paybright_event" ("id" text not null, "kind" text not null, "payment_id" text null, "order_id" text null, "contract" text null, "message" text not null, "actor" text not null default 'system', "details" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_event_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_event_kind" ON "paybright_event" ("kind") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_event_payment_id" ON "paybright_event" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_event_order_id" ON "paybright_event" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_event_contract" ON "paybright_event" ("contract") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_event_deleted_at" ON "paybright_event" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paybright_event" cascade;`)
  }
}
