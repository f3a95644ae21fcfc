export * from "./workflows"
export type { ApprovalRecord, RecordApprovalInput } from "./steps"
