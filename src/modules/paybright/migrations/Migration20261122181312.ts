import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122181312 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_money_record" drop constraint if exists "paybright_money_record_idempotency_key_unique";`
    )
    this.addSql(
      `alter table if exists "paybright_card_transaction" drop constraint if exists "paybright_card_transaction_idempotency_key_unique";`
    )
    this.addSql(
      `create table if not exists "paybright_card_transaction" ("id" text not null, "payment_id" text not null, "kind" text check ("kind" in ('charge', 'refund')) not null, "processor" text not null, "processor_id" text null, "charge_id" text null, "amount" numeric not null, "medusa_id" text not null, "idempotency_key" text not null, "state" text check ("state" in ('pending', 'done', 'refused', 'in_doubt')) not null default 'pending', "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_card_transaction_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_card_transaction_payment_id" ON "paybright_card_transaction" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_card_transaction_medusa_id" ON "paybright_card_transaction" ("medusa_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_card_transaction_idempotency_key_unique" ON "paybright_card_transaction" ("idempotency_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_card_transaction_deleted_at" ON "paybright_card_transaction" ("deleted_at") WHERE deleted_at IS NULL;`
    )

    this.addSql(
      `create table if not exists "paybright_money_record" ("id" text not null, "kind" text check ("kind" in ('capture', 'refund')) not null, "trigger" text check ("trigger" in ('shipment', 'fulfillment', 'admin', 'cancellation', 'retry')) not null, "idempotency_key" text null, "payment_id" text not null, "order_id" text null, "fulfillment_id" text null, "contract" text null, "amount" numeric not null, "currency_code" text not null, "state" text check ("state" in ('pending', 'done', 'refused', 'in_doubt')) not null default 'pending', "reference" text null, "medusa_id" text null, "message" text null, "lender_evidence" jsonb null, "resolved_by" text null, "resolved_at" timestamptz null, "retry_of" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paybright_money_record_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paybright_money_record_idempotency_key_unique" ON "paybright_money_record" ("idempotency_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_money_record_payment_id" ON "paybright_money_record" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_money_record_order_id" ON "paybright_money_record" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_money_record_medusa_id" ON "paybright_money_record" ("medusa_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_paybright_money_record_deleted_at" ON "paybright_money_record" ("deleted_at") WHERE deleted_at IS NULL;`
    )

    this.addSql(`drop table if exists "paybright_capture" cascade;`)
  }

  override async down(): Promise<void> {
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

    this.addSql(`drop table if exists "paybright_card_transaction" cascade;`)

    this.addSql(`drop table if exists "paybright_money_record" cascade;`)
  }
}
