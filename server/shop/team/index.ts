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
