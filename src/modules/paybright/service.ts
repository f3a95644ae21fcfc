import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightCardTransaction } from "./models/paybright-card-transaction"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightMoneyRecord } from "./models/paybright-money-record"

/** The plugin's own records: every capture and refund, the virtual card's movements, and the event log. */
export default class PayBrightModuleService extends MedusaService({
  PayBrightMoneyRecord,
  PayBrightCardTransaction,
  PayBrightEvent,
}) {}
