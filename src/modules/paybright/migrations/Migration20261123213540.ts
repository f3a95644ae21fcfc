import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123213540 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" drop constraint if exists "paybright_approval_state_check";`
    )

    this.addSql(
      `alter table if exists "paybright_money_record" drop constraint if exists "paybright_money_record_kind_check";`
    )
    this.addSql(
      `alter table if exists "paybright_money_record" drop constraint if exists "paybright_money_record_trigger_check";`
    )

    this.addSql(`alter table if exists "paybright_approval" add column if not exists "provider_id" text null;`)
    this.addSql(
      `alter table if exists "paybright_approval" add constraint "paybright_approval_state_check" check("state" in ('approved', 'ordered', 'orphaned', 'released', 'handled'));`
    )

    this.addSql(
      `alter table if exists "paybright_money_record" add column if not exists "medusa_amount" numeric null, add column if not exists "raw_medusa_amount" jsonb null;`
    )
    this.addSql(
      `alter table if exists "paybright_money_record" alter column "payment_id" type text using ("payment_id"::text);`
    )
    this.addSql(`alter table if exists "paybright_money_record" alter column "payment_id" drop not null;`)
    this.addSql(
      `alter table if exists "paybright_money_record" add constraint "paybright_money_record_kind_check" check("kind" in ('capture', 'refund', 'void'));`
    )
    this.addSql(`update "paybright_money_record" set "trigger" = 'order_canceled' where "trigger" = 'cancellation';`)
    this.addSql(
      `alter table if exists "paybright_money_record" add constraint "paybright_money_record_trigger_check" check("trigger" in ('shipment', 'fulfillment', 'admin', 'order_canceled', 'orphan', 'retry'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "paybright_approval" drop constraint if exists "paybright_approval_state_check";`
    )

    this.addSql(
      `alter table if exists "paybright_money_record" drop constraint if exists "paybright_money_record_kind_check";`
    )
    this.addSql(
      `alter table if exists "paybright_money_record" drop constraint if exists "paybright_money_record_trigger_check";`
    )

    this.addSql(`alter table if exists "paybright_approval" drop column if exists "provider_id";`)

    this.addSql(
      `alter table if exists "paybright_approval" add constraint "paybright_approval_state_check" check("state" in ('approved', 'ordered', 'orphaned', 'handled'));`
    )

    this.addSql(
      `alter table if exists "paybright_money_record" drop column if exists "medusa_amount", drop column if exists "raw_medusa_amount";`
    )

    this.addSql(
      `alter table if exists "paybright_money_record" alter column "payment_id" type text using ("payment_id"::text);`
    )
    this.addSql(`alter table if exists "paybright_money_record" alter column "payment_id" set not null;`)
    this.addSql(
      `alter table if exists "paybright_money_record" add constraint "paybright_money_record_kind_check" check("kind" in ('capture', 'refund'));`
    )
    this.addSql(`update "paybright_money_record" set "trigger" = 'cancellation' where "trigger" = 'order_canceled';`)
    this.addSql(
      `alter table if exists "paybright_money_record" add constraint "paybright_money_record_trigger_check" check("trigger" in ('shipment', 'fulfillment', 'admin', 'cancellation', 'retry'));`
    )
  }
}
