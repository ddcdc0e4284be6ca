import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MyGrants, MySealKey, MySealKeyChange, Order, PrivateAddresses, StaffAddressAccess, StaffAddressAccessList } from "../../../contract";
import {
  createOwnerKey,
  formatKeyId,
  grantOwnerKeys,
  openGrantedKey,
  openSealedAddress,
  parseSealed,
  rewrapOwnerKey,
  unlockOwnerKey,
  type OwnerKey,
  type OwnerKeySetup,
  type SealableAddress,
} from "../../../contract/owner-seal";
import { accounts, accountSealKeys, auditLog, privateAddressGrants } from "../../db/schema";
import { queryRows } from "../../db/rows";
import { protectNewAddress } from "../../shop/vaults";
import { TEST_STAFF_PASSWORD } from "../../../test-support/admin-password";
import { useAdminServer, UNKNOWN_ID } from "../../../test-support/app";
import { insertOrder } from "../../../test-support/factories";
import { encodingsOfPrivateKey, unwrapPrivateKeyForTest } from "../../../test-support/owner-seal";

// Staff access to sealed addresses (issue 25; docs/decisions/0037-sealed-address-grants.md), the whole
// way through the real routes: keys are made, wrapped, granted and opened with the same WebCrypto
// code the browsers run (contract/owner-seal.ts, Node's globalThis.crypto.subtle here).

const OWNER_PASSPHRASE = "plum orchard lantern river";
const PACKER_PASSPHRASE = "packer's very own passphrase";
const MANAGER_PASSPHRASE = "manager keeps this one safe";
const OLD_ADDRESS: SealableAddress = { name: "Zoë Ørsted", streetAddress: "7 Rue de la Paix", postcode: "EC1A 1BB", contact: null };
const NEW_ADDRESS: SealableAddress = { name: "Jane Smith", streetAddress: "1 High Street, London", postcode: "SW1A 1AA", contact: "07700 900123" };

type Cookie = string;

describe("staff access to sealed addresses", () => {
  const admin = useAdminServer();
  const { db } = admin;
  const as = (cookie: Cookie) => ({
    call: (method: string, url: string, body?: unknown) => admin.server.request(method, url, { cookie, body }),
    json: async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const response = await admin.server.request(method, url, { cookie, body });
      expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBe(200);
      return (await response.json()) as T;
    },
  });
  const owner = () => as(admin.cookie);

  const keyBody = (setup: OwnerKeySetup) => ({ publicKey: setup.publicKey, wrappedPrivateKey: setup.wrappedPrivateKey, salt: setup.salt, iterations: setup.iterations });

  // Two keys of the owner: an older one (turned off) and the one in use, an order sealed to each.
  let oldOwnerKey: OwnerKeySetup;
  let ownerKey: OwnerKeySetup;
  let packerKey: OwnerKeySetup;
  let packerNewKey: OwnerKeySetup;
  let packer2Key: OwnerKeySetup;
  let managerKey: OwnerKeySetup;
  let oldOrderId: string;
  let newOrderId: string;
  // "demoted" is made by the test that changes its role, so the lists the earlier tests read do not show it.
  const staff: Record<"packer" | "packer2" | "manager" | "support" | "demoted", { cookie: Cookie; accountId: string }> = {} as never;

  beforeAll(async () => {
    [oldOwnerKey, ownerKey, packerKey, packerNewKey, packer2Key, managerKey] = await Promise.all([
      createOwnerKey(OWNER_PASSPHRASE),
      createOwnerKey(OWNER_PASSPHRASE),
      createOwnerKey(PACKER_PASSPHRASE),
      createOwnerKey(PACKER_PASSPHRASE),
      createOwnerKey("second packer passphrase"),
      createOwnerKey(MANAGER_PASSPHRASE),
    ]);
    await owner().json("POST", "/api/private-addresses", keyBody(oldOwnerKey));
    oldOrderId = await placeOrder(OLD_ADDRESS);
    await owner().json("DELETE", "/api/private-addresses");
    await owner().json("POST", "/api/private-addresses", keyBody(ownerKey));
    newOrderId = await placeOrder(NEW_ADDRESS);
    staff.packer = await admin.server.loginAs("packer");
    staff.packer2 = await admin.server.loginAs("packer", "packer2");
    staff.manager = await admin.server.loginAs("manager");
    staff.support = await admin.server.loginAs("support");
  }, 60_000);

  beforeEach(async () => {
    await db().delete(accountSealKeys);
    await db().update(accounts).set({ disabled: false });
    await db().delete(auditLog);
  });

  /** An order as checkout stores it: its address sealed to the key in use. */
  async function placeOrder(address: SealableAddress): Promise<string> {
    const id = crypto.randomUUID();
    await insertOrder(db(), { id, status: "processing", ...(await protectNewAddress(db(), id, address)) });
    return id;
  }

  /** The staff member's browser: its own key set up with its passphrase. */
  const setUpKey = (who: keyof typeof staff, setup: OwnerKeySetup) => as(staff[who].cookie).json<MySealKeyChange>("PUT", "/api/private-addresses/my-key", keyBody(setup));

  /** The owner's browser: reads every key of the shop and the staff member's key, seals, uploads. */
  async function grant(who: keyof typeof staff, passphrase = OWNER_PASSPHRASE) {
    const { keys } = await owner().json<PrivateAddresses>("GET", "/api/private-addresses");
    const { accounts: list } = await owner().json<StaffAddressAccessList>("GET", "/api/private-addresses/grants");
    const entry = list.find((account) => account.accountId === staff[who].accountId)!;
    const sealed = await grantOwnerKeys(keys, passphrase, { accountId: entry.accountId, publicKey: entry.key!.publicKey, keyId: entry.key!.keyId });
    const answer = await owner().json<StaffAddressAccess>("PUT", `/api/private-addresses/grants/${entry.accountId}`, { grants: sealed.grants });
    return { answer, sealed };
  }

  /** The staff member's browser at "Unlock addresses": their passphrase opens their key, which opens the grants. */
  async function unlockAsStaff(who: keyof typeof staff, passphrase: string): Promise<Map<string, OwnerKey>> {
    const { key } = await as(staff[who].cookie).json<MySealKey>("GET", "/api/private-addresses/my-key");
    const mine = await unlockOwnerKey(key!, passphrase);
    const { accountId, grants } = await as(staff[who].cookie).json<MyGrants>("GET", "/api/private-addresses/my-grants");
    expect(accountId).toBe(staff[who].accountId);
    const opened = await Promise.all(grants.map((received) => openGrantedKey(mine, received, accountId)));
    return new Map(opened.map((opened) => [opened.keyId, opened]));
  }

  /** An order's sealed address as the staff member's Orders screen reads it, opened with what they unlocked. */
  async function readAddress(who: keyof typeof staff, orderId: string, keys: Map<string, OwnerKey>) {
    const [order] = await as(staff[who].cookie).json<Order[]>("GET", `/api/orders?q=${orderId}`);
    expect(order!.shippingAddress).toBeNull();
    const sealed = order!.sealedShippingAddress!;
    const key = keys.get(parseSealed(sealed)!.keyId);
    if (!key) return "sealed";
    return openSealedAddress(key, sealed, orderId);
  }

  it("a packer sets up a key, the owner grants every key of the shop, and the packer reads old and new sealed addresses", async () => {
    expect(await as(staff.packer.cookie).json<MySealKey>("GET", "/api/private-addresses/my-key")).toEqual({ key: null });
    // Without a key and without a grant, the packer's screen says "Sealed".
    expect(await readAddress("packer", newOrderId, new Map())).toBe("sealed");

    const set = await setUpKey("packer", packerKey);
    expect(set).toEqual({ key: { ...keyBody(packerKey), keyId: packerKey.keyId, createdAt: expect.any(String) }, grantsRemoved: 0 });

    const { accounts: before } = await owner().json<StaffAddressAccessList>("GET", "/api/private-addresses/grants");
    // Every account whose role reads addresses, the owner and support not among them.
    expect(before.map((account) => account.username).sort()).toEqual(["manager", "packer", "packer2"]);
    expect(before.find((account) => account.username === "packer")).toMatchObject({
      role: "packer",
      eligible: true,
      disabled: false,
      key: { keyId: packerKey.keyId, publicKey: packerKey.publicKey },
      grants: [],
    });
    expect(before.find((account) => account.username === "manager")!.key).toBeNull();

    const { answer, sealed } = await grant("packer");
    expect(sealed.notOpened).toEqual([]);
    expect(answer.grants.map((entry) => entry.ownerKeyId).sort()).toEqual([oldOwnerKey.keyId, ownerKey.keyId].sort());

    const keys = await unlockAsStaff("packer", PACKER_PASSPHRASE);
    expect([...keys.keys()].sort()).toEqual([oldOwnerKey.keyId, ownerKey.keyId].sort());
    expect(await readAddress("packer", newOrderId, keys)).toEqual(NEW_ADDRESS);
    expect(await readAddress("packer", oldOrderId, keys)).toEqual(OLD_ADDRESS);
    // Another passphrase opens nothing.
    await expect(unlockAsStaff("packer", OWNER_PASSPHRASE)).rejects.toThrow("does not unlock");

    // The log names fingerprints, never a key or a sealed grant.
    const entries = await db().select().from(auditLog).orderBy(auditLog.createdAt);
    expect(entries.map((entry) => [entry.action, entry.accountUsername])).toEqual([
      ["private-addresses.staff-key-set", "packer"],
      ["private-addresses.access-granted", "owner"],
    ]);
    expect(entries[0]!.summary).toContain(formatKeyId(packerKey.keyId));
    expect(entries[1]).toMatchObject({ targetType: "account", targetId: staff.packer.accountId });
    for (const fingerprint of [ownerKey.keyId, oldOwnerKey.keyId, packerKey.keyId]) expect(entries[1]!.summary).toContain(formatKeyId(fingerprint));
    const logged = JSON.stringify(entries);
    for (const secret of [packerKey.wrappedPrivateKey, ...sealed.grants.map((entry) => entry.sealedPrivateKey)]) expect(logged).not.toContain(secret.slice(20, 60));
  });

  it("revoking deletes the grants: the packer's next unlock opens nothing, and revoking again is harmless", async () => {
    await setUpKey("packer", packerKey);
    await grant("packer");
    const revoked = await owner().json<StaffAddressAccess>("DELETE", `/api/private-addresses/grants/${staff.packer.accountId}`);
    expect(revoked).toMatchObject({ accountId: staff.packer.accountId, key: { keyId: packerKey.keyId }, grants: [] });
    expect(await as(staff.packer.cookie).json<MyGrants>("GET", "/api/private-addresses/my-grants")).toEqual({ accountId: staff.packer.accountId, grants: [] });
    expect(await readAddress("packer", newOrderId, await unlockAsStaff("packer", PACKER_PASSPHRASE))).toBe("sealed");
    expect((await owner().call("DELETE", `/api/private-addresses/grants/${staff.packer.accountId}`)).status).toBe(200);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "private-addresses.access-revoked"));
    expect(entry).toMatchObject({ targetType: "account", targetId: staff.packer.accountId });
    expect(entry!.summary).toContain("may have kept");
  });

  it("a staff account sees only its own grants and cannot grant, list or revoke", async () => {
    await setUpKey("packer", packerKey);
    await setUpKey("packer2", packer2Key);
    const { sealed } = await grant("packer");
    const other = as(staff.packer2.cookie);
    expect(await other.json<MyGrants>("GET", "/api/private-addresses/my-grants")).toEqual({ accountId: staff.packer2.accountId, grants: [] });
    const tries = [
      ["GET", "/api/private-addresses/grants", undefined],
      ["PUT", `/api/private-addresses/grants/${staff.packer2.accountId}`, { grants: sealed.grants }],
      ["PUT", `/api/private-addresses/grants/${staff.packer.accountId}`, { grants: sealed.grants }],
      ["DELETE", `/api/private-addresses/grants/${staff.packer.accountId}`, undefined],
      ["GET", "/api/private-addresses", undefined],
    ] as const;
    for (const [method, url, body] of tries) {
      const response = await other.call(method, url, body);
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(await response.json()).toEqual({ error: 'Your role (Packer) does not have the "privacy" permission.' });
    }
    // Even holding the first packer's grant, the second packer's key does not open it: it was sealed to another key.
    const mine = await unlockOwnerKey(packer2Key, "second packer passphrase");
    const { grants } = await as(staff.packer.cookie).json<MyGrants>("GET", "/api/private-addresses/my-grants");
    await expect(openGrantedKey(mine, grants[0]!, staff.packer2.accountId)).rejects.toThrow("sealed to another key");
    expect(await db().select({ accountId: privateAddressGrants.accountId }).from(privateAddressGrants)).toEqual(
      sealed.grants.map(() => ({ accountId: staff.packer.accountId })),
    );
  });

  it("a manager may set up a key and be granted access too", async () => {
    await setUpKey("manager", managerKey);
    await grant("manager");
    expect(await readAddress("manager", newOrderId, await unlockAsStaff("manager", MANAGER_PASSPHRASE))).toEqual(NEW_ADDRESS);
  });

  it("support is refused (403) its own key and grants, and cannot be given access; the owner keeps no staff key", async () => {
    const support = as(staff.support.cookie);
    for (const [method, url, body] of [
      ["GET", "/api/private-addresses/my-key", undefined],
      ["PUT", "/api/private-addresses/my-key", keyBody(packer2Key)],
      ["GET", "/api/private-addresses/my-grants", undefined],
    ] as const) {
      const response = await support.call(method, url, body);
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(await response.json()).toEqual({ error: 'Your role (Support) does not have the "orders.addresses" permission.' });
    }
    // A support account that somehow holds a key (its role changed since) is still not given access.
    await db().insert(accountSealKeys).values({ accountId: staff.support.accountId, ...keyBody(packer2Key), keyId: packer2Key.keyId });
    const sealed = await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, { accountId: staff.support.accountId, publicKey: packer2Key.publicKey, keyId: packer2Key.keyId });
    const refused = await owner().call("PUT", `/api/private-addresses/grants/${staff.support.accountId}`, { grants: sealed.grants });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "Test support's role (Support) cannot see addresses. Give them a role that can first." });

    const own = await owner().call("PUT", "/api/private-addresses/my-key", keyBody(packer2Key));
    expect(own.status).toBe(409);
    expect(((await own.json()) as { error: string }).error).toMatch(/^The owner unlocks sealed addresses with the shop's own key/);
    expect(await owner().json<MySealKey>("GET", "/api/private-addresses/my-key")).toEqual({ key: null });
  });

  it("refuses every malformed or misdirected grant, saying what to do, and stores nothing", async () => {
    await setUpKey("packer", packerKey);
    const [good] = (await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, { accountId: staff.packer.accountId, publicKey: packerKey.publicKey, keyId: packerKey.keyId })).grants;
    const toPacker2 = (await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, { accountId: staff.packer.accountId, publicKey: packer2Key.publicKey, keyId: packer2Key.keyId })).grants[0]!;
    const ownerAccount = (await db().select().from(accounts).where(eq(accounts.role, "owner")))[0]!;
    const packerUrl = `/api/private-addresses/grants/${staff.packer.accountId}`;
    const cases: [string, unknown, number, string | RegExp][] = [
      [`/api/private-addresses/grants/${UNKNOWN_ID}`, { grants: [good] }, 404, "There is no such staff account. Reload the page and try again."],
      ["/api/private-addresses/grants/not-an-id", { grants: [good] }, 400, "Account ID must be a valid id"],
      [`/api/private-addresses/grants/${ownerAccount.id}`, { grants: [good] }, 400, "The owner reads sealed addresses with the shop's own key: there is nothing to grant."],
      [`/api/private-addresses/grants/${staff.packer2.accountId}`, { grants: [good] }, 409, /^Test packer has not set up a key yet/],
      [packerUrl, { grants: [] }, 400, "Grants must hold at least one key"],
      [packerUrl, {}, 400, "Grants must be a list"],
      [packerUrl, { grants: [good, good] }, 400, "Each of the owner's keys may be granted once per request."],
      [packerUrl, { grants: [{ ...good, ownerKeyId: "f".repeat(32) }] }, 404, `The shop has no key ${formatKeyId("f".repeat(32))}. Reload the page and try again.`],
      [packerUrl, { grants: [{ ...good, ownerKeyId: "NOT HEX" }] }, 400, /fingerprint/],
      [packerUrl, { grants: [{ ...good, sealedPrivateKey: "the owner's private key, in clear" }] }, 400, /^Sealed private key must be a sealed value/],
      [packerUrl, { grants: [{ ...good, sealedPrivateKey: "x".repeat(2001) }] }, 400, "Sealed private key is too long"],
      [packerUrl, { grants: [{ ...good, sealedPrivateKey: 42 }] }, 400, "Sealed private key must be text"],
      [packerUrl, { grants: [toPacker2] }, 409, /^This access was sealed to another key of Test packer's/],
    ];
    for (const [url, body, status, error] of cases) {
      const response = await owner().call("PUT", url, body);
      expect(response.status, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(((await response.json()) as { error: string }).error).toMatch(error);
    }
    await db().update(accounts).set({ disabled: true }).where(eq(accounts.id, staff.packer.accountId));
    const disabled = await owner().call("PUT", packerUrl, { grants: [good] });
    expect(disabled.status).toBe(409);
    expect(await disabled.json()).toEqual({ error: "Test packer's account is disabled. Enable it before giving access." });
    expect(await db().select().from(privateAddressGrants)).toEqual([]);
    expect((await owner().call("DELETE", `/api/private-addresses/grants/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it("a new staff key pair removes the grants (the old ones would open nothing) and an old grant sent again is refused; a new passphrase keeps them", async () => {
    await setUpKey("packer", packerKey);
    const { sealed } = await grant("packer");
    // The same key pair under a new passphrase (the packer's browser rewraps it): the grants stay and open.
    const rewrapped = await rewrapOwnerKey(packerKey, PACKER_PASSPHRASE, "the packer's next passphrase");
    const same = await setUpKey("packer", rewrapped);
    expect(same).toMatchObject({ key: { keyId: packerKey.keyId, salt: rewrapped.salt }, grantsRemoved: 0 });
    expect(await readAddress("packer", newOrderId, await unlockAsStaff("packer", "the packer's next passphrase"))).toEqual(NEW_ADDRESS);

    // A forgotten passphrase: a new key pair. The grants sealed to the old key go.
    const changed = await setUpKey("packer", packerNewKey);
    expect(changed).toMatchObject({ key: { keyId: packerNewKey.keyId }, grantsRemoved: 2 });
    expect((await as(staff.packer.cookie).json<MyGrants>("GET", "/api/private-addresses/my-grants")).grants).toEqual([]);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.summary, `Their own key for sealed addresses is ${formatKeyId(packerNewKey.keyId)}; a new key pair, so the 2 grants sealed to the old one were removed`));
    expect(entry).toBeDefined();

    // A stale owner page replays what it sealed to the old key: refused.
    const replay = await owner().call("PUT", `/api/private-addresses/grants/${staff.packer.accountId}`, { grants: sealed.grants });
    expect(replay.status).toBe(409);
    // A key another account already uses is refused.
    const taken = await as(staff.packer2.cookie).call("PUT", "/api/private-addresses/my-key", keyBody(packerNewKey));
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toMatch(/belongs to another account/);
    expect(await readAddress("packer", newOrderId, await unlockAsStaff("packer", PACKER_PASSPHRASE))).toBe("sealed");
  });

  it("a key change racing a grant never leaves a grant sealed to a key the account no longer has", async () => {
    await setUpKey("packer", packerKey);
    const recipientOf = (setup: OwnerKeySetup) => ({ accountId: staff.packer.accountId, publicKey: setup.publicKey, keyId: setup.keyId });
    const sealedTo = new Map([
      [packerKey.keyId, (await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, recipientOf(packerKey))).grants],
      [packerNewKey.keyId, (await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, recipientOf(packerNewKey))).grants],
    ]);
    let current = packerKey;
    for (let round = 0; round < 8; round++) {
      const next = current === packerKey ? packerNewKey : packerKey;
      // The owner grants to the key they saw while the packer replaces it.
      const [keyChange, granting] = await Promise.all([
        as(staff.packer.cookie).call("PUT", "/api/private-addresses/my-key", keyBody(next)),
        owner().call("PUT", `/api/private-addresses/grants/${staff.packer.accountId}`, { grants: sealedTo.get(current.keyId) }),
      ]);
      expect(keyChange.status).toBe(200);
      expect([200, 409]).toContain(granting.status);
      current = next;
      // Either the grant came first and the new key removed it, or the key came first and the grant was refused.
      expect(await db().select().from(privateAddressGrants), `round ${round}`).toEqual([]);
      // A grant sealed to the key the account has now is taken.
      const fresh = await owner().call("PUT", `/api/private-addresses/grants/${staff.packer.accountId}`, { grants: sealedTo.get(current.keyId) });
      expect(fresh.status).toBe(200);
    }
  });

  it("a new role that cannot read addresses revokes the account's grants in the same change; one that can keeps them", async () => {
    staff.demoted = await admin.server.loginAs("packer", "demoted");
    await setUpKey("demoted", packer2Key);
    await grant("demoted");
    const grantsHeld = () => db().select().from(privateAddressGrants).where(eq(privateAddressGrants.accountId, staff.demoted.accountId));
    const changeRole = async (role: string) => {
      const response = await owner().call("PATCH", `/api/staff/${staff.demoted.accountId}`, { role });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ id: staff.demoted.accountId, role });
    };
    const staffChange = async () => (await db().select().from(auditLog).where(eq(auditLog.action, "staff.update")).orderBy(auditLog.createdAt)).at(-1)!.summary;

    // Packer to manager: addresses are still theirs to read, and so are the grants.
    await changeRole("manager");
    expect(await grantsHeld()).toHaveLength(2);
    expect(await staffChange()).toBe('"demoted" (Test packer): role set to Manager');

    // Manager to support: the grants go with the role, and the log says so.
    await changeRole("support");
    expect(await grantsHeld()).toEqual([]);
    expect(await staffChange()).toBe('"demoted" (Test packer): role set to Support, access to sealed addresses revoked (2 grants)');
    const { accounts: list } = await owner().json<StaffAddressAccessList>("GET", "/api/private-addresses/grants");
    expect(list.map((account) => account.accountId)).not.toContain(staff.demoted.accountId);

    // Made a packer again, the key they kept (and their passphrase) opens nothing until the owner grants again.
    await changeRole("packer");
    expect(await staffChange()).toBe('"demoted" (Test packer): role set to Packer');
    const signedIn = await admin.server.request("POST", "/api/auth/login", { body: { username: "demoted", password: TEST_STAFF_PASSWORD } });
    expect(signedIn.status).toBe(200);
    staff.demoted.cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const keys = await unlockAsStaff("demoted", "second packer passphrase");
    expect(keys.size).toBe(0);
    expect(await readAddress("demoted", newOrderId, keys)).toBe("sealed");
    expect(await as(staff.demoted.cookie).json<MySealKey>("GET", "/api/private-addresses/my-key")).toMatchObject({ key: { keyId: packer2Key.keyId } });
  });

  it("a role change racing a grant never leaves access with a role that cannot read addresses", async () => {
    const raced = await admin.server.loginAs("packer", "raced");
    await as(raced.cookie).json<MySealKeyChange>("PUT", "/api/private-addresses/my-key", keyBody(packerNewKey));
    const { grants } = await grantOwnerKeys([ownerKey], OWNER_PASSPHRASE, { accountId: raced.accountId, publicKey: packerNewKey.publicKey, keyId: packerNewKey.keyId });
    for (let round = 0; round < 8; round++) {
      // The owner grants access on one screen while demoting the account on another.
      const [demoting, granting] = await Promise.all([
        owner().call("PATCH", `/api/staff/${raced.accountId}`, { role: "support" }),
        owner().call("PUT", `/api/private-addresses/grants/${raced.accountId}`, { grants }),
      ]);
      expect(demoting.status).toBe(200);
      expect([200, 409]).toContain(granting.status);
      // Either the grant came first and the role change revoked it, or the role came first and the grant was refused.
      expect(await db().select().from(privateAddressGrants).where(eq(privateAddressGrants.accountId, raced.accountId)), `round ${round}`).toEqual([]);
      await db().update(accounts).set({ role: "packer" }).where(eq(accounts.id, raced.accountId));
    }
  });

  it("keeps nothing that opens without a passphrase: no private key in any row, no passphrase anywhere", async () => {
    await setUpKey("packer", packerKey);
    await setUpKey("manager", managerKey);
    await grant("packer");
    await grant("manager");
    const tables = await queryRows<{ name: string }>(db(), sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(["account_seal_keys", "private_address_grants", "owner_seal_keys"]));
    let everything = "";
    for (const { name } of tables) {
      const rows = await queryRows<{ row: string }>(db(), sql.raw(`select t::text as row from "${name}" t`));
      everything += rows.map((row) => row.row).join("\n");
    }
    expect(everything).toContain(packerKey.publicKey.slice(30, 60));
    const secrets = [
      ...encodingsOfPrivateKey(await unwrapPrivateKeyForTest(ownerKey, OWNER_PASSPHRASE)),
      ...encodingsOfPrivateKey(await unwrapPrivateKeyForTest(oldOwnerKey, OWNER_PASSPHRASE)),
      ...encodingsOfPrivateKey(await unwrapPrivateKeyForTest(packerKey, PACKER_PASSPHRASE)),
      ...encodingsOfPrivateKey(await unwrapPrivateKeyForTest(managerKey, MANAGER_PASSPHRASE)),
      OWNER_PASSPHRASE,
      PACKER_PASSPHRASE,
      MANAGER_PASSPHRASE,
    ];
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
