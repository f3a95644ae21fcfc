import { z } from "@medusajs/framework/zod"

/** Admin routes that take no query: anything sent is refused, naming it. */
export const AdminNoQuery = z.object({})

/** Admin actions that take no body (an empty JSON object is fine). */
export const AdminNoBody = z.object({}).optional()
