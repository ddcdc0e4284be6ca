import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { MyGrants, MySealKey, Order, PrivateAddresses } from "../../contract";
import {
  OwnerSealError,
  openGrantedKey,
  openSealedAddress,
  sealedKeyId,
  unlockOwnerKey,
  WRONG_PASSPHRASE_MESSAGE,
  type OwnerKey,
  type SealableAddress,
} from "../../contract/owner-seal";
import { useAuthStatus } from "./queries";

// The owner's unlocked keys (private addresses, docs/decisions/0025-owner-only-addresses.md). They
// live in this React context only: never in storage, never sent anywhere, and not exportable
// (contract/owner-seal.ts imports them as non-extractable). A reload or a logout (which unmounts the
// provider, web/app.tsx) forgets them, and with them every opened address.

export const PRIVATE_ADDRESSES_KEY = ["/api/private-addresses"] as const;
/** A staff account's own key and the owner's keys it was given (docs/decisions/0037-sealed-address-grants.md). */
export const MY_SEAL_KEY_KEY = ["/api/private-addresses/my-key"] as const;
export const MY_GRANTS_KEY = ["/api/private-addresses/my-grants"] as const;
/** The owner's Staff access list. */
export const STAFF_ACCESS_KEY = ["/api/private-addresses/grants"] as const;

/** The sentence a staff member without access reads where a sealed address would be. */
export const ASK_OWNER_TEXT = "Sealed: ask the owner for access";
export const NO_GRANTS_MESSAGE =
  "The owner has not given you access to sealed addresses yet. Ask the owner for access: they give it in Bot Settings, Private addresses.";
/** Where opened addresses are cached while unlocked: removed on lock and when the provider goes. */
const OPENED_KEY = "owner-opened-address";

type OwnerKeys = {
  /** The unlocked keys by fingerprint; empty while locked. */
  keys: ReadonlyMap<string, OwnerKey>;
  /** Tries the passphrase on every key of the shop; answers how many it opened, or throws OwnerSealError. */
  unlock(passphrase: string): Promise<number>;
  lock(): void;
};

const OwnerKeysContext = createContext<OwnerKeys | null>(null);

/** WebCrypto exists only in a secure context (https, or this machine): elsewhere nothing can be sealed or opened. */
export const cryptoAvailable = () => typeof globalThis.crypto?.subtle?.importKey === "function";

export const NO_CRYPTO_MESSAGE =
  "This browser can only unlock private addresses on a secure connection: open the shop over https (or on this computer's own address).";

/** Whether the signed-in account is the owner (who holds the shop's keys) or staff (who is given them). */
export function useIsOwner(): boolean {
  return useAuthStatus().data?.account?.role === "owner";
}

/**
 * A staff account's unlock: its passphrase opens its own key, which opens the grants the owner gave
 * it, each into one of the owner's keys (non-extractable, checked against the owner's public key).
 */
async function openGrantedKeys(queryClient: ReturnType<typeof useQueryClient>, passphrase: string): Promise<OwnerKey[]> {
  const [{ key }, { accountId, grants }] = await Promise.all([
    queryClient.fetchQuery<MySealKey>({ queryKey: MY_SEAL_KEY_KEY, staleTime: 0 }),
    queryClient.fetchQuery<MyGrants>({ queryKey: MY_GRANTS_KEY, staleTime: 0 }),
  ]);
  if (!key) throw new OwnerSealError("unavailable", "Set up your key first: choose a passphrase of your own, then ask the owner for access.");
  const mine = await unlockOwnerKey(key, passphrase);
  if (grants.length === 0) throw new OwnerSealError("unavailable", NO_GRANTS_MESSAGE);
  const opened: OwnerKey[] = [];
  let problem: unknown = null;
  for (const grant of grants) {
    try {
      opened.push(await openGrantedKey(mine, grant, accountId));
    } catch (error) {
      problem = error;
    }
  }
  if (opened.length === 0) throw problem;
  return opened;
}

export function OwnerKeysProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();
  const [keys, setKeys] = useState<ReadonlyMap<string, OwnerKey>>(() => new Map());

  const unlock = useCallback(
    async (passphrase: string) => {
      if (!cryptoAvailable()) throw new OwnerSealError("unavailable", NO_CRYPTO_MESSAGE);
      if (!isOwner) {
        const granted = await openGrantedKeys(queryClient, passphrase);
        setKeys((before) => new Map([...before, ...granted.map((key) => [key.keyId, key] as const)]));
        return granted.length;
      }
      // Fresh from the server: another browser may have changed the passphrase since.
      const setup = await queryClient.fetchQuery<PrivateAddresses>({ queryKey: PRIVATE_ADDRESSES_KEY, staleTime: 0 });
      const opened: OwnerKey[] = [];
      for (const key of setup.keys) {
        try {
          opened.push(await unlockOwnerKey(key, passphrase));
        } catch (error) {
          // The passphrase opened the private key but the public key beside it is not its own: say so at once.
          // Any other key this passphrase does not open (another passphrase, or damaged) is left locked.
          if (!(error instanceof OwnerSealError) || error.problem === "mismatched-key") throw error;
        }
      }
      if (opened.length === 0) throw new OwnerSealError("wrong-passphrase", WRONG_PASSPHRASE_MESSAGE);
      setKeys((before) => new Map([...before, ...opened.map((key) => [key.keyId, key] as const)]));
      return opened.length;
    },
    [queryClient, isOwner],
  );

  const lock = useCallback(() => {
    setKeys(new Map());
    queryClient.removeQueries({ queryKey: [OPENED_KEY] });
  }, [queryClient]);

  // Logging out unmounts this provider: the opened addresses go with the keys.
  useEffect(() => () => queryClient.removeQueries({ queryKey: [OPENED_KEY] }), [queryClient]);

  const value = useMemo(() => ({ keys, unlock, lock }), [keys, unlock, lock]);
  return <OwnerKeysContext.Provider value={value}>{children}</OwnerKeysContext.Provider>;
}

export function useOwnerKeys(): OwnerKeys {
  const value = useContext(OwnerKeysContext);
  if (!value) throw new Error("useOwnerKeys needs an OwnerKeysProvider (web/app.tsx)");
  return value;
}

/** Whether private addresses are on, and their keys: read by the card and the unlock controls. */
export function usePrivateAddresses() {
  return useQuery<PrivateAddresses>({ queryKey: PRIVATE_ADDRESSES_KEY });
}

/** A staff account's own key (null before it set one up); not asked for the owner. */
export function useMySealKey() {
  const isOwner = useIsOwner();
  return useQuery<MySealKey>({ queryKey: MY_SEAL_KEY_KEY, enabled: !isOwner });
}

/** The owner's keys given to this staff account; not asked for the owner. */
export function useMyGrants() {
  const isOwner = useIsOwner();
  return useQuery<MyGrants>({ queryKey: MY_GRANTS_KEY, enabled: !isOwner });
}

/**
 * Whether this browser could open what is sealed to `keyId` once unlocked: the owner always may try
 * (their passphrase); staff only with a grant for that key. Undefined while the grants load.
 */
export function useMayUnlock(keyId: string | null): boolean | undefined {
  const isOwner = useIsOwner();
  const grants = useMyGrants();
  if (isOwner) return true;
  if (!grants.data) return undefined;
  return keyId !== null && grants.data.grants.some((grant) => grant.ownerKeyId === keyId);
}

/** An order's address as this browser can show it. */
export type ShownAddress =
  | { state: "clear"; address: SealableAddress }
  /** Sealed to the owner's key, opened here after unlocking. */
  | { state: "opened"; address: SealableAddress }
  /** Sealed, and the key it needs is not unlocked. */
  | { state: "locked"; keyId: string }
  | { state: "opening" }
  /** Sealed, unlocked, and still it does not open (damaged, or moved from another order). */
  | { state: "unopenable"; message: string }
  /** No address: erased, or never given (order.addressErasedAt tells which). */
  | { state: "none" };

/** Opens an order's sealed address with an unlocked key (once per order while unlocked). */
export function useShownAddress(order: Pick<Order, "id" | "shippingAddress" | "sealedShippingAddress"> | null): ShownAddress {
  const { keys } = useOwnerKeys();
  const sealed = order?.sealedShippingAddress ?? null;
  const keyId = sealed ? sealedKeyId(sealed) : null;
  const key = keyId ? keys.get(keyId) : undefined;
  const opened = useQuery({
    queryKey: [OPENED_KEY, order?.id, sealed],
    queryFn: () => openSealedAddress(key!, sealed!, order!.id),
    enabled: order !== null && sealed !== null && key !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  if (!order) return { state: "none" };
  if (order.shippingAddress) return { state: "clear", address: order.shippingAddress };
  if (!sealed) return { state: "none" };
  if (!keyId) return { state: "unopenable", message: "This address is stored in a form this page does not know." };
  if (!key) return { state: "locked", keyId };
  if (opened.data) return { state: "opened", address: opened.data };
  if (opened.error) return { state: "unopenable", message: opened.error.message };
  return { state: "opening" };
}

/** Opens sealed addresses for a whole list at once (the export); null where it cannot. */
export async function openAddressFor(keys: ReadonlyMap<string, OwnerKey>, orderId: string, sealed: string): Promise<SealableAddress | null> {
  const keyId = sealedKeyId(sealed);
  const key = keyId ? keys.get(keyId) : undefined;
  if (!key) return null;
  return openSealedAddress(key, sealed, orderId).catch(() => null);
}
