import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import PayBrightProviderService from "./service"

export default ModuleProvider(Modules.PAYMENT, {
  services: [PayBrightProviderService],
})
