export * from "./workflows"
export { supersedes } from "./steps"
export type { ApprovalRecord, RecordApprovalInput } from "./steps"
