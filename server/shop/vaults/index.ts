// The public face of shop/vaults/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { acceptSealedAddress, addressSearchCondition, ERASED_ADDRESS, protectAddress, protectNewAddress, readableAddress, revealAddress, revealAddresses, type RevealedAddress, tokenArray } from "./address-vault";
export { messageBinding, messageSearchCondition, protectMessage, revealMessages } from "./message-vault";
export { noteBinding, protectNote, revealNote } from "./note-vault";
export { deleteStaleAddressGrants, getMyGrants, getMySealKey, grantAddressAccess, listStaffAddressAccess, revokeAddressAccess, revokeAddressAccessUnlessReading, setMySealKey } from "./address-grants";
export { activeOwnerPublicKey, changeOwnerPassphrase, disablePrivateAddresses, enablePrivateAddresses, getPrivateAddresses } from "./private-addresses";
export { createDataKey, currentKey, open, seal, SERVER_KEY_PREFIX, unwrapDataKey, useMasterKey, VaultError, wrapDataKey } from "./vault";
