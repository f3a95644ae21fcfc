import { hasPermission } from "@medusajs/framework"
import type { AuthenticatedMedusaRequest } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"

type Policy = { resource: string; operation: string }

/**
 * Whether the admin user of this request holds every policy, as Medusa's own route check decides
 * it (roles from the session's app_metadata, wildcards included). Without Medusa's `rbac` feature
 * flag, every admin user may, as in the rest of the admin.
 */
export async function holdsPolicies(req: AuthenticatedMedusaRequest, policies: Policy[]): Promise<boolean> {
  const flags = req.scope.resolve(ContainerRegistrationKeys.FEATURE_FLAG_ROUTER) as {
    isFeatureEnabled(flag: string): boolean
  }
  if (!flags.isFeatureEnabled("rbac")) return true
  const roles = (req.auth_context?.app_metadata?.roles as string[] | undefined) ?? []
  return roles.length > 0 && hasPermission({ roles, actions: policies, container: req.scope })
}

/** Throws Medusa's own 403 ("Insufficient permissions. Required policies: …") unless the user holds every policy. */
export async function requirePolicies(req: AuthenticatedMedusaRequest, policies: Policy[]): Promise<void> {
  if (!(await holdsPolicies(req, policies))) {
    const keys = policies.map((policy) => `${policy.resource}:${policy.operation}`).join(", ")
    throw new MedusaError(MedusaError.Types.FORBIDDEN, `Insufficient permissions. Required policies: ${keys}`)
  }
}
