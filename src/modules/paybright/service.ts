import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightApproval } from "./models/paybright-approval"
import { PayBrightCardTransaction } from "./models/paybright-card-transaction"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightMoneyRecord } from "./models/paybright-money-record"
import { PayBrightSettings } from "./models/paybright-settings"

/**
 * The plugin's own records: every capture and refund, the virtual card's movements, the contracts
 * the lender approved, the event log of each payment, and the settings saved in the admin.
 */
export default class PayBrightModuleService extends MedusaService({
  PayBrightMoneyRecord,
  PayBrightCardTransaction,
  PayBrightApproval,
  PayBrightEvent,
  PayBrightSettings,
}) {}
