-- Stale sealed-address grants (docs/decisions/0037-sealed-address-grants.md, "Amended"): since a role
-- change away from "orders.addresses" revokes the account's grants (shop/team updateStaff), an
-- account whose role does not read addresses holds none. Grants given before that, to an account
-- moved since to such a role, are deleted here: the owner grants again if the role changes back.
-- The roles that read addresses are those of contract/team.ts ROLE_PERMISSIONS with "orders.addresses",
-- less the owner, whose key is the shop's (shop/vaults address-grants.ts READING_ROLES): manager, packer.
DELETE FROM "private_address_grants"
WHERE "account_id" IN (SELECT "id" FROM "accounts" WHERE "role" NOT IN ('manager', 'packer'));
