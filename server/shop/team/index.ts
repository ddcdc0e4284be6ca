// The public face of shop/team/ (issue 25): accounts, roles, two-factor, invites. Other folders
// import only this file (eslint.config.js).

export {
  type AccountRow,
  checkAccountPassword,
  ensureOwnerAccount,
  findAccount,
  findAccountForLogin,
  findOwner,
  OWNER_USERNAME,
  setOwnerPassword,
  storeOwnerPasswordHash,
  toAccount,
} from "./accounts";
export { checkNewPassword, COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./password-policy";
export { describeDevice } from "./devices";
export {
  type AcceptedInvite,
  acceptInvite,
  createStaff,
  deleteStaff,
  describeInvite,
  INVITE_GONE_MESSAGE,
  inviteGreeting,
  listStaff,
  renewInvite,
  updateStaff,
} from "./staff";
export { endOtherSessions, endSession, listSessions, type SessionViewer } from "./sessions";
