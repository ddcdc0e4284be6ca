import type { Role } from "../../../contract";

// What each role may do, in a line the owner reads when choosing one (contract/team.ts is the rule;
// these words follow its ROLE_PERMISSIONS).
export const ROLE_SUMMARIES: Record<Role, string> = {
  owner: "Everything, including staff, payments, privacy and the bot token.",
  manager: "Everything but staff, payments, privacy and the bot token.",
  packer: "Orders with their addresses: packing slips, dispatch and tracking.",
  support: "Customers' messages and the customer and order lists, without addresses.",
};
