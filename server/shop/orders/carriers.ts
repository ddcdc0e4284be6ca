// The carriers the shop knows how to link to (issue 13). The names are part of the API
// (contract KNOWN_CARRIERS, offered by the dispatch form); where each one's tracking page lives is
// kept once in contract/dispatch-notice.ts, so the dashboard can preview the customer's dispatch
// message exactly as it will be sent (issue 22). This file is its face in the shop.

export { carrierName, dispatchNotice, findKnownCarrier, parcelLines, trackingUrl } from "../../../contract";
