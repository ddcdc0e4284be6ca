import { describe, expect, it } from "vitest";
import { KNOWN_CARRIERS } from "../../../contract";
import { carrierName, findKnownCarrier, trackingUrl } from "./carriers";

describe("carriers", () => {
  it("links each known carrier's tracking page", () => {
    expect(trackingUrl("Royal Mail", "AB123456789GB")).toBe("https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB");
    expect(trackingUrl("DPD", "15501234567890")).toBe("https://track.dpd.co.uk/parcels/15501234567890");
    expect(trackingUrl("Evri", "H01ABC0012345678")).toBe("https://www.evri.com/track/parcel/H01ABC0012345678");
    expect(trackingUrl("UPS", "1Z999AA10123456784")).toBe("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(trackingUrl("DHL", "1234567890")).toBe(
      "https://www.dhl.com/gb-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=1234567890",
    );
    for (const carrier of KNOWN_CARRIERS) expect(trackingUrl(carrier, "X1")).toMatch(/^https:\/\//);
  });

  it("knows a carrier however it is typed, and stores it in its own spelling", () => {
    expect(findKnownCarrier("royal mail")).toBe("Royal Mail");
    expect(findKnownCarrier(" ROYALMAIL ")).toBe("Royal Mail");
    expect(findKnownCarrier("Royal-Mail")).toBe("Royal Mail");
    expect(findKnownCarrier("dhl")).toBe("DHL");
    expect(carrierName("evri")).toBe("Evri");
    expect(carrierName("Parcelforce")).toBe("Parcelforce");
    expect(carrierName(null)).toBeNull();
    expect(carrierName("")).toBeNull();
  });

  it("gives no link for an unknown carrier, no carrier or no number", () => {
    expect(trackingUrl("Parcelforce", "PF123")).toBeNull();
    expect(trackingUrl(null, "AB123456789GB")).toBeNull();
    expect(trackingUrl("Royal Mail", null)).toBeNull();
    expect(trackingUrl("Royal Mail", "   ")).toBeNull();
  });

  it("leaves spaces out of the number and URL-encodes the rest", () => {
    expect(trackingUrl("Royal Mail", "AB 1234 5678 9GB")).toBe(
      "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
    );
    // The API only accepts letters, digits, spaces and hyphens; the link is safe whatever it is given.
    expect(trackingUrl("UPS", "a&b=c#d/e?f")).toBe("https://www.ups.com/track?tracknum=a%26b%3Dc%23d%2Fe%3Ff");
  });
});
