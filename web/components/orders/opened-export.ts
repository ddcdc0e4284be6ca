import { csvLine, parseCsv } from "../../../contract/csv";
import type { OwnerKey } from "../../../contract/owner-seal";
import { ApiError } from "@/lib/api";
import { openAddressFor } from "@/lib/owner-keys";

// The orders export from a browser that unlocked private addresses (docs/decisions/0025): the server
// sends the file as always, with sealed addresses in its "Sealed address" column; this browser opens
// them and writes the address columns instead, then saves the file. Nothing opened leaves the browser
// except into the owner's own download.

const FILENAME = /filename="?([^";]+)"?/;

/** The server's CSV with every sealed address this browser can open filled in (the rest stay sealed). */
export async function fillOpenedAddresses(csv: string, keys: ReadonlyMap<string, OwnerKey>): Promise<string> {
  const bom = csv.startsWith("\uFEFF") ? "\uFEFF" : "";
  const [header, ...rows] = parseCsv(csv.slice(bom.length));
  if (!header) return csv;
  const column = (name: string) => header.indexOf(name);
  const at = {
    id: column("Order ID"),
    customer: column("Customer"),
    name: column("Address name"),
    street: column("Street address"),
    postcode: column("Postcode"),
    contact: column("Contact"),
    sealed: column("Sealed address"),
  };
  if (Object.values(at).some((index) => index < 0)) return csv;
  // An order with several items has several lines: each address is opened once.
  const opened = new Map<string, ReturnType<typeof openAddressFor>>();
  for (const row of rows) {
    const sealed = row[at.sealed];
    const orderId = row[at.id];
    if (!sealed || !orderId) continue;
    if (!opened.has(orderId)) opened.set(orderId, openAddressFor(keys, orderId, sealed));
    const address = await opened.get(orderId)!;
    if (!address) continue;
    // The server wrote the customer as "@username" (neutralised as "'@username"): the name goes first again.
    const username = (row[at.customer] ?? "").replace(/^'(?=@)/, "");
    row[at.customer] = username ? `${address.name} (${username})` : address.name;
    row[at.name] = address.name;
    row[at.street] = address.streetAddress;
    row[at.postcode] = address.postcode;
    row[at.contact] = address.contact ?? "";
    row[at.sealed] = "";
  }
  // csvLine neutralises what needs it (an opened name "=..."), and leaves the server's own quotes be.
  return bom + [header, ...rows].map((row) => csvLine(row)).join("");
}

/** Downloads the export at `url` with the opened addresses filled in, under the name the server gives. */
export async function downloadOpenedExport(url: string, keys: ReadonlyMap<string, OwnerKey>): Promise<void> {
  const response = await fetch(url, { credentials: "include" });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  const filename = FILENAME.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "orders.csv";
  // Decoded keeping the byte order mark (response.text() drops it): Excel needs it to read UTF-8.
  const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  const filled = await fillOpenedAddresses(csv, keys);
  const href = URL.createObjectURL(new Blob([filled], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The file is written by then; the opened addresses should not stay reachable by URL.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
