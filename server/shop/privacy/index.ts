// The public face of shop/privacy/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { encryptExistingData } from "./encrypt-existing";
export { type ForgetReport, forgetSecretsOfAnotherKey, whatForgettingLoses } from "./forget-secrets";
export { keyMatches, requireMatchingKey, WRONG_KEY_MESSAGE, WrongSecretKeyError } from "./key-check";
export { rewrapUnderNewMasterKey, rotateDataKey } from "./key-rotation";
export { applyRetention, describeCustomerData, describeForget, forgetCustomer, getPrivacySettings, savePrivacySettings } from "./privacy";
