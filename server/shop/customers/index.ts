// The public face of shop/customers/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { abandonDeadClaims, BROADCAST_RATE_PER_SECOND, type ClaimedRecipient, claimNextRecipient, countBroadcastReach, createBroadcast, getBroadcastProgress, isStartRecorded, listBroadcasts, markBlockedBot, markFailed, markSent, NO_OWNER_CHAT, optOutOfBroadcasts, ownerChatForTest, queueRestockAlerts, RATE_WINDOW_MS, recordBotStart, recordCustomerSeen, retryLater, waitForRestock } from "./broadcasts";
export { type CheckoutDraft, type CheckoutStage, clearConversation, type ConversationState, ConversationStateSchema, getConversation, IDLE, openConversation, replaceConversation, saveConversation } from "./conversations";
export { blockCustomer, getCustomerDetail, isBlocked, listCustomerPage, listCustomers, unblockCustomer } from "./customers";
export { createLiveFeed, type LiveEvent, type LiveFeed } from "./live-events";
export { listConversationPage, listConversations, listMessagePage, listMessagesMatching } from "./message-list";
export { describeNoteChange, getCustomerNote, saveCustomerNote } from "./notes";
export { countUnread, listThread, markMessageRead, recordCustomerMessage, sendAdminReply } from "./messages";
export { type ClaimedAlert, claimNextAlert, finishAlert, getOwnerAlerts, getOwnerAlertSettings, issueLinkCode, ownerAlertText, pruneAlerts, redeemLinkCode, releaseAlertClaims, retryAlertLater, setOwnerAlertKinds, skipReason, unlinkOwnerChat } from "./owner-alerts";
