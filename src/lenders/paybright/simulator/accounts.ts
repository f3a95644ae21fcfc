/** A merchant account: the API key (x_account_id) and the API token (HMAC secret, Basic password). */
export type Account = { apiKey: string; apiToken: string }

/**
 * The simulator's default account. Published on purpose: it is a test-only value that only the
 * simulator accepts, never a PayBright credential.
 */
export const SIMULATOR_TEST_ACCOUNT: Readonly<Account> = Object.freeze({
  apiKey: "sim_test_account",
  apiToken: "sim_test_token_do_not_use_in_production",
})

/** The account with this API key, if the simulator knows it. */
export function findAccount(accounts: readonly Account[], apiKey: string | undefined): Account | undefined {
  return apiKey ? accounts.find((account) => account.apiKey === apiKey) : undefined
}
