// The NOWPayments adapter (issue 21): implements the shop's payment gateway port
// (shop/payments/gateway-port.ts). Wired in server/services.ts; a second gateway is one more folder
// beside this one and one line there.
export { createNowPaymentsGateway, createNowPaymentsGatewayFromSettings, parseNowPayment, type NowPaymentsOptions } from "./client";
export { IPN_FIELDS, IPN_SIGNATURE_HEADER, readIpn } from "./notification";
export { ipnSignature, ipnSignedForms, sortKeysDeep, verifyIpnSignature } from "./signature";
