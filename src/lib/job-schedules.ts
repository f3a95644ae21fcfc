/**
 * Cron schedule of the reconciliation and of the missed parcels' capture (default every five
 * minutes), read when the store loads its jobs: a store can run them more often than the default.
 */
export const RECONCILE_SCHEDULE = process.env.PAYBRIGHT_RECONCILE_SCHEDULE || "*/5 * * * *"
