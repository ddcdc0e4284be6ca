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
export {
  beginTwoFactorSetup,
  checkSecondFactor,
  type EnablingSession,
  finishTwoFactorSetup,
  getTeamSettings,
  INVALID_CODE_MESSAGE,
  markSessionVerified,
  readSecondFactorCode,
  RECOVERY_CODE_COUNT,
  removeTwoFactor,
  saveTeamSettings,
  type SecondFactorCheck,
  type TeamSettings,
  type TotpSetup,
  TOTP_ISSUER,
  turnOffTwoFactor,
  unusedRecoveryCodes,
} from "./two-factor";
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
  type StaffUpdate,
  updateStaff,
} from "./staff";
export { endOtherSessions, endSession, endSessionsOf, listSessions, type SessionViewer } from "./sessions";
