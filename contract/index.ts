// The API's shapes, shared by the server and the web forms: one file per topic, all re-exported
// here, so importers use "contract" itself. contract/ depends on zod only (eslint.config.js);
// contract/fields.ts holds the topics' shared building blocks and is not re-exported.
// First: the owner's wording of zod's messages is in place before any schema is used (contract/owner-words.ts).
export * from "./owner-words";
export * from "./common";
export * from "./paging";
export * from "./team";
export * from "./auth";
export * from "./two-factor";
export * from "./staff";
export * from "./languages";
export * from "./settings";
export * from "./catalogue";
export * from "./postage";
export * from "./coupons";
export * from "./payment-gateways";
export * from "./orders";
export * from "./dispatch-notice";
export * from "./messages";
export * from "./dashboard";
export * from "./webhooks";
export * from "./customers";
export * from "./audit";
export * from "./events";
export * from "./bot-status";
export * from "./broadcasts";
export * from "./owner-alerts";
export * from "./privacy";
export * from "./simulator";
export * from "./private-addresses";
export * from "./secret-mask";
export * from "./payment-words";
export * from "./audit-words";
export * from "./storefront";
