import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightCapture } from "./models/paybright-capture"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightSettings } from "./models/paybright-settings"

/**
 * The plugin's own records: the captures it makes by itself, the event log of each payment, and
 * the settings saved in the admin.
 */
export default class PayBrightModuleService extends MedusaService({
  PayBrightCapture,
  PayBrightEvent,
  PayBrightSettings,
}) {}
