import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122181339 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" drop constraint if exists "paybright_approval_contract_unique";`
    )
    this.addSql(
      `create table if not exists "paybright_approval" ("id" text not null, "contract" text not null, "session_id" text not null, "cart_id" text null, "order_id" text null, "amount" text not null, "currency_code" text not null, "state" text check ("state" in ('approved', 'ordered', 'orphaned', 'handled')) not null default 'approved', "reason" text null, "handled_by" text null, "handled_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_approval_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_approval_contract_unique" ON "paybright_approval" ("contract") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_approval_session_id" ON "paybright_approval" ("session_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_approval_cart_id" ON "paybright_approval" ("cart_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_approval_order_id" ON "paybright_approval" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_approval_deleted_at" ON "paybright_approval" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paybright_approval" cascade;`)
  }
}
