import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightApproval } from "./models/paybright-approval"
import { PayBrightCapture } from "./models/paybright-capture"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightSettings } from "./models/paybright-settings"

/**
 * The plugin's own records: the captures it makes by itself, the contracts the lender approved,
 * the event log of each payment, and the settings saved in the admin.
 */
export default class PayBrightModuleService extends MedusaService({
  PayBrightCapture,
  PayBrightEvent,
  PayBrightApproval,
  PayBrightSettings,
}) {}
