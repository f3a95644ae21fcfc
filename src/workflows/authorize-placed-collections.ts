import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  authorizePlacedCollectionsStep,
  type AuthorizePlacedCollectionsInput,
} from "./steps/authorize-placed-collections"

/**
 * A placed order's collections read as authorized while a PayBright payment in them stands, even
 * when Medusa lost that write and placed the order on its kept payment (lib/collection-authorization.ts).
 */
export const authorizePlacedCollectionsWorkflow = createWorkflow(
  "paybright-authorize-placed-collections-workflow",
  (input: AuthorizePlacedCollectionsInput) => new WorkflowResponse(authorizePlacedCollectionsStep(input))
)
