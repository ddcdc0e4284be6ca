import { useMemo } from "react";
import { encode } from "uqr";

// A QR code as an <svg> drawn from uqr's module matrix: one path of unit squares, no markup built
// from strings. Always dark on white whatever Telegram's theme, with the quiet zone wallets need to
// read it.

export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = encode(value, { ecc: "M", border: 2 });
    let d = "";
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { size: qr.size, path: d };
  }, [value]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} className="mx-auto block size-56 rounded-md bg-white" shapeRendering="crispEdges" data-testid="payment-qr">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
