// The public face of shop/common/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { listAuditLog, recordAudit, summariseChange } from "./audit";
export { decimalShortfall, decimalToPence, gatewayAmountText, isPositiveDecimal, isShortPayment, percentToBasisPoints } from "./crypto-amounts";
export { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from "./db-errors";
export { conflict, type CustomerText, type CustomerTextValue, invalid, notFound, ShopError, unavailable } from "./errors";
export { isUuid, shortOrderId, UUID_SOURCE } from "./ids";
export { afterKey, decodeCursor, encodeCursor, escapeLike, type KeyPart, keyText, type Page, pageFromRows } from "./paging";
export { consoleLogger, type CustomerNotifier, reasonOf, type ShopLogger, type WarningLogger } from "./ports";
export { type CatalogueSnapshot, type CatalogueSubject, type CouponSnapshot, describeBroadcast, describeCatalogueWrite, describeCouponWrite, quotedName } from "./audit-words";
