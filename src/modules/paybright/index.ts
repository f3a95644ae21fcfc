import { Module } from "@medusajs/framework/utils"
import PayBrightModuleService from "./service"

export const PAYBRIGHT_MODULE = "paybright"

export default Module(PAYBRIGHT_MODULE, { service: PayBrightModuleService })
