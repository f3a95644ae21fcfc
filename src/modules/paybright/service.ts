import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightApproval } from "./models/paybright-approval"
import { PayBrightCapture } from "./models/paybright-capture"
import { PayBrightEvent } from "./models/paybright-event"

/**
 * The plugin's own records: the captures it makes by itself, the contracts the lender approved,
 * and the event log of each payment.
 */
export default class PayBrightModuleService extends MedusaService({
  PayBrightCapture,
  PayBrightEvent,
  PayBrightApproval,
}) {}
