import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122122622 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_capture" drop constraint if exists "paybright_capture_idempotency_key_unique";`
    )
    this.addSql(
      `create table if not exists "paybright_capture" ("id" text not null, "idempotency_key" text not null, "payment_id" text not null, "order_id" text not null, "fulfillment_id" text not null, "trigger" text check ("trigger" in ('shipment', 'fulfillment')) not null, "amount" numeric not null, "currency_code" text not null, "status" text check ("status" in ('pending', 'captured', 'failed')) not null default 'pending', "attempts" integer not null default 0, "last_error" text null, "capture_id" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_capture_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_capture_idempotency_key_unique" ON "paybright_capture" ("idempotency_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_capture_payment_id" ON "paybright_capture" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_capture_order_id" ON "paybright_capture" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_capture_deleted_at" ON "paybright_capture" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paybright_capture" cascade;`)
  }
}
