import { useSyncExternalStore } from "react";
import { LIVE_EVENT_NAMES, LiveOrderPaidSchema, type LiveEventName, type LiveOrderPaid } from "../../contract";
import { formatGBP, shortId } from "./screen-helpers";
import { wasSettledHere } from "./settled-here";

// The signed-in app's live updates (issue 13): one EventSource on GET /api/events, which names the
// lists that changed (server/shop/customers/live-events.ts). EventSource reconnects by itself after a dropped
// connection, sending the last id it saw, and the server answers what was missed (or "resync").
// Without it (a proxy that cuts streams, an old browser) the app works as it always did: the lists
// reload after the admin's own writes and when the page is reloaded.

export const LIVE_EVENTS_URL = "/api/events";
/**
 * EventSource gives up for good when the server refuses the stream (401 after the session ended,
 * 503 while the database is away): try again after this long, while the app is still signed in.
 */
const REOPEN_AFTER_REFUSAL_MS = 30_000;

export type LiveEventHandler = (name: LiveEventName, data: string) => void;

/** Opens the stream and hands every named event to `onEvent`; answers the function that closes it. */
export function connectLiveEvents(onEvent: LiveEventHandler): () => void {
  if (typeof EventSource === "undefined") return () => {};
  let source: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  // A stream opened anew after a refusal knows nothing of what changed meanwhile: reload everything.
  let reopenedAfterRefusal = false;

  const open = () => {
    const stream = new EventSource(LIVE_EVENTS_URL);
    source = stream;
    for (const name of LIVE_EVENT_NAMES) stream.addEventListener(name, (event) => onEvent(name, (event as MessageEvent<string>).data));
    stream.addEventListener("ready", () => {
      if (reopenedAfterRefusal) onEvent("resync", "{}");
      reopenedAfterRefusal = false;
    });
    stream.addEventListener("error", () => {
      // CONNECTING: EventSource retries by itself. CLOSED: the server refused it and it will not.
      if (closed || stream.readyState !== EventSource.CLOSED) return;
      source = null;
      reopenTimer = setTimeout(() => {
        if (closed) return;
        reopenedAfterRefusal = true;
        open();
      }, REOPEN_AFTER_REFUSAL_MS);
    });
  };
  open();

  return () => {
    closed = true;
    clearTimeout(reopenTimer);
    source?.close();
    source = null;
  };
}

/** The order-paid event's data, or null when it is not what the server sends. */
export function parseOrderPaid(data: string): LiveOrderPaid | null {
  try {
    const parsed = LiveOrderPaidSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// --- The optional alert for a paid order (off by default; the user menu turns it on) ---

const PAID_ALERTS_KEY = "shop-admin.paid-order-alerts";
const alertListeners = new Set<() => void>();

function readPaidAlerts(): boolean {
  try {
    return localStorage.getItem(PAID_ALERTS_KEY) === "on";
  } catch {
    return false; // storage blocked (private mode in some browsers): the alerts stay off
  }
}

/** Whether the owner turned paid-order alerts on (kept in this browser's localStorage). */
export function usePaidOrderAlerts(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      alertListeners.add(onChange);
      return () => alertListeners.delete(onChange);
    },
    readPaidAlerts,
  );
}

/**
 * Turns the alerts on or off. Called from the menu click, so the browser allows the permission
 * prompt (asked only now, never on load) and lets the chime's audio start.
 */
export async function setPaidOrderAlerts(on: boolean): Promise<void> {
  try {
    if (on) localStorage.setItem(PAID_ALERTS_KEY, "on");
    else localStorage.removeItem(PAID_ALERTS_KEY);
  } catch {
    // storage blocked: the choice lasts until the page reloads
  }
  for (const listener of alertListeners) listener();
  if (!on) return;
  audioContext();
  if (typeof Notification !== "undefined" && Notification.permission === "default") await Notification.requestPermission();
}

let sharedAudio: AudioContext | null = null;
function audioContext(): AudioContext | null {
  if (typeof AudioContext === "undefined") return null;
  sharedAudio ??= new AudioContext();
  return sharedAudio;
}

/** Two short rising tones, made on the spot (no sound file to load). */
function playChime() {
  const audio = audioContext();
  if (!audio) return;
  void audio.resume().catch(() => {});
  const start = audio.currentTime;
  [880, 1320].forEach((frequency, index) => {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    const at = start + index * 0.15;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.15);
  });
}

/**
 * The alert for one paid order, when the owner turned alerts on: a chime, and a notification if
 * allowed. Not for an order the owner just accepted by hand in this browser.
 */
export function alertOrderPaid(order: LiveOrderPaid) {
  if (!readPaidAlerts() || wasSettledHere(order.orderId)) return;
  playChime();
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  // One notification per order, even when several tabs are open (the tag replaces, not adds).
  new Notification(`Order paid: ${formatGBP(order.totalAmount)}`, {
    body: `Order ${shortId(order.orderId)} is ready to dispatch.`,
    tag: `order-paid-${order.orderId}`,
  });
}
