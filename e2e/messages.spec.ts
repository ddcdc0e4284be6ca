import type { CustomerMessage } from "../contract";
import { answerNextConfirm, createBotSettings, holdRequests, inBatches, urlParams, waitForListRequest } from "./fixtures/ui";
import { DESKTOP, expect, expectToast, PHONE, saveScreenshot, test } from "./support/fixtures";

const MINUTES = 60 * 1000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTES).toISOString();

test.describe("messages", () => {
  test("the empty states and the loading text", async ({ adminPage: page }) => {
    // The screen reads one page of conversations from the server (/api/messages/conversations?limit=50).
    const hold = await holdRequests(page, /\/api\/messages\/conversations\?/);
    await page.goto("/messages");
    await expect(page.getByText("Loading conversations...")).toBeVisible();
    await hold.release();
    await expect(page.getByText("No conversations yet")).toBeVisible();
    await expect(page.getByText("Select a conversation")).toBeVisible();
    await expect(page.getByText("Choose a customer to start messaging")).toBeVisible();
    await expect(page.getByTestId("unread-count")).toHaveText("0 unread messages");
    await expect(page.getByTestId("message-panel")).toHaveCSS("height", "600px");

    // A customer without messages (e.g. a link to a conversation that was emptied).
    await page.goto("/messages?user=99999");
    await expect(page.getByText("No messages in this conversation")).toBeVisible();
  });

  test("conversations: one per customer, latest first, avatar, last message, unread dot; opening marks read", async ({ adminPage: page, seed, api }) => {
    // Customer ids of different lengths get different avatar colours (docs/product.md §9: by id length).
    await seed.message({ telegramUserId: "1234", telegramUsername: "alice_smith", message: "Hi, is the phone in stock?", isRead: true, createdAt: ago(50) });
    await seed.message({ telegramUserId: "1234", telegramUsername: null, message: "Yes, it is.", isFromCustomer: false, isRead: true, createdAt: ago(45) });
    await seed.message({ telegramUserId: "56789", telegramUsername: "bob", message: "Where is my order?", createdAt: ago(30) });
    const bobLastAt = ago(5);
    await seed.message({ telegramUserId: "56789", telegramUsername: "bob", message: "Hello??", createdAt: bobLastAt });
    await seed.message({ telegramUserId: "424242", telegramUsername: null, message: "Do you ship abroad?", createdAt: ago(20) });
    await page.goto("/messages");

    await expect(page.getByTestId("unread-count")).toHaveText("3 unread messages");
    const conversations = page.getByTestId("conversation");
    await expect(conversations).toHaveCount(3);
    await expect(conversations.nth(0)).toContainText("@bob");
    await expect(conversations.nth(0)).toContainText("Hello??");
    await expect(conversations.nth(1)).toContainText("424242");
    await expect(conversations.nth(2)).toContainText("@alice_smith");
    await expect(conversations.nth(2)).toContainText("You: Yes, it is.");
    await expect(conversations.nth(0).getByTestId("unread-dot")).toBeVisible();
    await expect(conversations.nth(1).getByTestId("unread-dot")).toBeVisible();
    await expect(conversations.nth(2).getByTestId("unread-dot")).toHaveCount(0);
    // Initials and the colour chosen by id length (5, 6, 4 characters).
    await expect(conversations.nth(0).getByText("BO", { exact: true })).toHaveClass(/bg-blue-700/);
    await expect(conversations.nth(1).getByText("42", { exact: true })).toHaveClass(/bg-green-700/);
    await expect(conversations.nth(2).getByText("AS", { exact: true })).toHaveClass(/bg-pink-700/);
    await expect(conversations.nth(0)).toContainText(new Date(bobLastAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" }));

    // Opening bob's conversation shows the thread and marks his messages read.
    await conversations.nth(0).click();
    const panel = page.getByTestId("message-panel");
    await expect(panel.getByTestId("thread-customer")).toHaveText("@bob");
    await expect(panel.getByTestId("customer-bubble")).toHaveText([/Where is my order\?/, /Hello\?\?/]);
    await expect(page.getByTestId("unread-count")).toHaveText("1 unread message");
    await expect(conversations.nth(0).getByTestId("unread-dot")).toHaveCount(0);
    await expect
      .poll(async () => (await api.get<CustomerMessage[]>("/api/messages/user/56789")).map((m) => m.isRead))
      .toEqual([true, true]);
    expect((await api.get<CustomerMessage[]>("/api/messages/user/424242"))[0]!.isRead).toBe(false);

    // Alice's thread has both sides.
    await conversations.nth(2).click();
    await expect(panel.getByTestId("customer-bubble")).toHaveText([/Hi, is the phone in stock\?/]);
    await expect(panel.getByTestId("admin-bubble")).toHaveText([/Yes, it is\./]);
  });

  test("a reply reaches the customer's Telegram chat; Enter sends; a refusal shows the failure toast", async ({ adminPage: page, seed, api, telegram }) => {
    await createBotSettings(api);
    await seed.message({ telegramUserId: "8675309", telegramUsername: "jenny", message: "Can I change my address?" });
    await page.goto("/messages");
    await page.getByTestId("conversation").first().click();
    const panel = page.getByTestId("message-panel");
    const reply = panel.getByRole("textbox", { name: "Reply" });
    await expect(panel.getByRole("button", { name: "Send" })).toBeDisabled();

    // Enter sends.
    let from = telegram.calls.length;
    await reply.fill("Yes, send me the new one.");
    await reply.press("Enter");
    await expectToast(page, "Message sent successfully!");
    let call = await telegram.waitForCall((c) => c.method === "sendMessage", { from });
    expect(String(call.payload.chat_id)).toBe("8675309");
    expect(call.payload.text).toBe("Yes, send me the new one.");
    await expect(reply).toHaveValue("");
    await expect(panel.getByTestId("admin-bubble")).toHaveText([/Yes, send me the new one\./]);

    // The button sends too.
    from = telegram.calls.length;
    await reply.fill("Thanks!");
    await panel.getByRole("button", { name: "Send" }).click();
    await expectToast(page, "Message sent successfully!");
    call = await telegram.waitForCall((c) => c.method === "sendMessage", { from });
    expect(call.payload.text).toBe("Thanks!");
    await expect(page.getByTestId("conversation").first()).toContainText("You: Thanks!");

    const thread = await api.get<CustomerMessage[]>("/api/messages/user/8675309");
    expect(thread.filter((m) => !m.isFromCustomer).map((m) => m.message)).toEqual(["Yes, send me the new one.", "Thanks!"]);

    // Telegram refuses: the failure toast, nothing stored, the text stays to try again.
    // Refused for this chat alone: a sendMessage of another test's background work (the worker
    // shares one fake Telegram) must not take the refusal instead.
    telegram.failChat("8675309", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    await reply.fill("Hello again");
    await reply.press("Enter");
    const toast = await expectToast(page, "Failed to send message");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    await expect(reply).toHaveValue("Hello again");
    expect(await api.get<CustomerMessage[]>("/api/messages/user/8675309")).toHaveLength(3);
  });

  test("pages through hundreds of conversations", async ({ adminPage: page, seed }) => {
    const start = Date.now();
    await inBatches(120, 12, (i) =>
      seed.message({
        telegramUserId: String(700000 + i),
        telegramUsername: `shopper${i}`,
        message: `Question number ${i}`,
        createdAt: new Date(start - i * MINUTES).toISOString(),
      }),
    );
    await page.goto("/messages");
    const conversations = page.getByTestId("conversation");
    await expect(conversations).toHaveCount(50);
    await expect(conversations.first()).toContainText("@shopper0");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("1–50 of 120 conversations");
    await saveScreenshot(page, "messages-paged-desktop");
    // Each page is asked of the server, after the cursor its previous page answered.
    const second = waitForListRequest(page, "/api/messages/conversations", { limit: "50" });
    await pager.getByRole("button", { name: "Next page" }).click();
    expect(new URL((await second).url()).searchParams.get("cursor")).toBeTruthy();
    await expect(conversations.first()).toContainText("@shopper50");
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(conversations).toHaveCount(20);
    await expect(conversations.last()).toContainText("@shopper119");
    await expect(page.getByTestId("unread-count")).toHaveText("120 unread messages");
    expect(urlParams(page)).toEqual({ page: "3", cursor: expect.any(String) });

    // Opening a conversation keeps the page; a reload shows the same page and the same conversation.
    await conversations.filter({ hasText: "@shopper105" }).click();
    await expect(page.getByTestId("thread-customer")).toHaveText("@shopper105");
    expect(urlParams(page)).toEqual({ page: "3", cursor: expect.any(String), user: "700105" });
    const again = waitForListRequest(page, "/api/messages/conversations", { limit: "50", cursor: urlParams(page).cursor! });
    await page.reload();
    await again;
    await expect(pager).toContainText("101–120 of 120 conversations");
    await expect(conversations).toHaveCount(20);
    await expect(conversations.first()).toContainText("@shopper100");
    await expect(page.getByTestId("thread-customer")).toHaveText("@shopper105");
    await expect(conversations.filter({ hasText: "@shopper105" })).toHaveAttribute("aria-current", "true");
    // Previous after a reload starts again from the first page (only this page's cursor was kept).
    await pager.getByRole("button", { name: "Previous page" }).click();
    await expect(pager).toContainText("1–50 of 120 conversations");
    await expect(conversations.first()).toContainText("@shopper0");
    expect(urlParams(page)).toEqual({ user: "700105" });
  });

  test("beside a conversation, the customer's orders: status, total, a link to each; none for a customer without", async ({ adminPage: page, seed }) => {
    const paid = await seed.order({ telegramUserId: "7001", telegramUsername: "carol", status: "processing", paymentStatus: "finished", totalAmount: "42.00", createdAt: ago(90) });
    const waiting = await seed.order({ telegramUserId: "7001", telegramUsername: "carol", status: "pending", totalAmount: "5.25", createdAt: ago(30) });
    await seed.order({ telegramUserId: "7999", telegramUsername: "someone_else", status: "dispatched", totalAmount: "99.00" });
    await seed.message({ telegramUserId: "7001", telegramUsername: "carol", message: "Did my order ship?", createdAt: ago(10) });
    await seed.message({ telegramUserId: "7002", telegramUsername: "dan", message: "Just browsing", createdAt: ago(5) });
    await page.setViewportSize(DESKTOP);
    await page.goto("/messages?user=7001");
    const context = page.getByTestId("customer-context");
    await expect(context.getByTestId("customer-context-summary")).toHaveText("2 orders · £42.00 spent");
    const orders = context.getByTestId("context-order");
    // Newest first, each with its status and total; someone else's order is not here.
    await expect(orders).toHaveCount(2);
    await expect(orders.nth(0)).toContainText(`#${waiting.id.slice(0, 8)}`);
    await expect(orders.nth(0)).toContainText("£5.25");
    await expect(orders.nth(0)).toContainText("Pending");
    await expect(orders.nth(1)).toContainText("£42.00");
    await expect(orders.nth(1)).toContainText("Processing");
    await expect(context).not.toContainText("£99.00");
    await saveScreenshot(page, "messages-customer-context-desktop");

    await page.getByTestId("conversation").filter({ hasText: "@dan" }).click();
    await expect(context).toContainText("No orders yet");
    await expect(context.getByTestId("customer-context-summary")).toHaveText("0 orders · £0.00 spent");

    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Back to conversations" }).click();
    await page.getByTestId("conversation").filter({ hasText: "@carol" }).click();
    await expect(orders).toHaveCount(2);
    await saveScreenshot(page, "messages-customer-context-phone");
    await orders.nth(1).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/orders\\?q=${paid.id}$`));
    // On a phone the Orders screen lists cards: just this order's.
    await expect(page.getByTestId("order-card")).toHaveCount(1);
    await expect(page.getByTestId("order-card")).toContainText(paid.id.slice(0, 8));
  });

  test("beside a conversation, the owner's note: guarded, saved, there after a reload and on the customer page, saved after signing in again", async ({ adminPage: page, seed, api }) => {
    await seed.order({ telegramUserId: "7101", telegramUsername: "erin", status: "processing", paymentStatus: "finished", totalAmount: "12.00", createdAt: ago(60) });
    await seed.message({ telegramUserId: "7101", telegramUsername: "erin", message: "Could you gift wrap it?", createdAt: ago(10) });
    await page.setViewportSize(DESKTOP);
    await page.goto("/messages?user=7101");
    const notes = page.getByTestId("customer-notes");
    const box = notes.getByRole("textbox", { name: "Notes" });
    const save = notes.getByRole("button", { name: "Save" });
    const status = notes.getByTestId("customer-note-status");
    await expect(box).toHaveValue("");
    await expect(save).toBeDisabled();
    // Emoji, right-to-left text and a second line, kept as typed.
    const text = "Prefers gift wrap 🎁 · يفضل التغليف\nCall before dispatch.";
    await box.fill(text);
    await expect(status).toHaveText("Unsaved changes");
    await expect(notes).toContainText(`${[...text].length} / 2000 characters`);
    // Leaving with the note unsaved asks first; staying keeps it.
    const asked = answerNextConfirm(page, "You have unsaved changes. Leave this page without saving them?", false);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
    await asked;
    await expect(page).toHaveURL(/\/messages\?user=7101$/);
    await expect(box).toHaveValue(text);
    await save.click();
    await expectToast(page, "Note saved");
    await expect(status).toContainText(/^Saved \d/);
    await expect(save).toBeDisabled();

    await page.reload();
    await expect(box).toHaveValue(text);
    await expect(status).toContainText("Saved");
    await saveScreenshot(page, "messages-customer-notes-desktop");
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "messages-customer-notes-desktop-dark");
    await page.setViewportSize(PHONE);
    await expect(box).toHaveValue(text);
    await saveScreenshot(page, "messages-customer-notes-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await saveScreenshot(page, "messages-customer-notes-phone");

    // The customer's page shows the same note.
    await page.getByTestId("customer-context").getByRole("link", { name: "Customer page" }).click();
    await expect(page.getByTestId("customer-title")).toHaveText("@erin");
    const onPage = page.getByTestId("customer-notes");
    await expect(onPage.getByRole("textbox", { name: "Notes" })).toHaveValue(text);

    // A save after the session ended signs in over the page, then saves the note as typed.
    await onPage.getByRole("textbox", { name: "Notes" }).fill("Gift wrap every order.");
    await page.context().clearCookies();
    await onPage.getByRole("button", { name: "Save" }).click();
    const signIn = page.getByRole("alertdialog", { name: "Sign in to save" });
    await signIn.getByLabel("Password").fill("e2e admin password");
    await signIn.getByRole("button", { name: "Sign in and save" }).click();
    await expectToast(page, "Note saved");
    await expect(signIn).toBeHidden();
    expect((await api.get<{ note: string }>("/api/customers/7101/notes")).note).toBe("Gift wrap every order.");
  });

  test("phone size: the list, then the thread with a way back; screenshots", async ({ adminPage: page, seed }) => {
    await seed.message({ telegramUserId: "1234", telegramUsername: "alice_smith", message: "Hi, is the phone in stock?", isRead: true, createdAt: ago(50) });
    await seed.message({ telegramUserId: "1234", telegramUsername: null, message: "Yes, we have 12 left. Would you like me to reserve one?", isFromCustomer: false, isRead: true, createdAt: ago(45) });
    await seed.message({ telegramUserId: "1234", telegramUsername: "alice_smith", message: "Yes please!", isRead: true, createdAt: ago(40) });
    await seed.message({ telegramUserId: "56789", telegramUsername: "bob", message: "Where is my order?", createdAt: ago(30) });
    await seed.message({ telegramUserId: "424242", telegramUsername: null, message: "Do you ship abroad?", createdAt: ago(20) });
    await page.goto("/messages");
    await expect(page.getByTestId("conversation")).toHaveCount(3);
    await saveScreenshot(page, "messages-desktop");
    await page.getByTestId("conversation").filter({ hasText: "alice_smith" }).click();
    await expect(page.getByTestId("admin-bubble")).toHaveCount(1);
    await saveScreenshot(page, "messages-thread-desktop");

    await page.setViewportSize(PHONE);
    // The thread fills the screen on a phone; the back button returns to the list.
    await expect(page.getByTestId("conversation")).toHaveCount(0);
    await saveScreenshot(page, "messages-thread-phone");
    await page.getByRole("button", { name: "Back to conversations" }).click();
    await expect(page.getByTestId("conversation")).toHaveCount(3);
    expect(urlParams(page)).toEqual({});
    await expect(page.getByText("Select a conversation")).toHaveCount(0);
    await saveScreenshot(page, "messages-phone");
    await page.getByTestId("conversation").filter({ hasText: "bob" }).click();
    await expect(page.getByTestId("thread-customer")).toHaveText("@bob");
  });
});
