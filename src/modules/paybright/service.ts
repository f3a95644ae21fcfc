import { MedusaService } from "@medusajs/framework/utils"
import { PayBrightCapture } from "./models/paybright-capture"

/** The plugin's own records: the captures it makes by itself. */
export default class PayBrightModuleService extends MedusaService({ PayBrightCapture }) {}
