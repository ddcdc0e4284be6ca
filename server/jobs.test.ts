import { describe, expect, it } from "vitest";
import { createLocks } from "./db/leader";
import { backgroundJobs, createJobRunner, senderJobs, type Job } from "./jobs";

// The background jobs, declared in one list (jobs.ts): what main.ts starts, in which order, and
// that they stop in reverse order.

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

function recordingJob(name: string, events: string[], afterListen = false): Job {
  return {
    name,
    afterListen,
    start: async () => void events.push(`start ${name}`),
    stop: async () => void events.push(`stop ${name}`),
  };
}

describe("background jobs", () => {
  it("lists every job once, the bot last and alone after listen, with its interval and lock", () => {
    // Building the list starts nothing, so nothing here is ever called.
    const unused = {} as never;
    const idle = { start: () => {}, stop: async () => {} };
    const jobs = backgroundJobs(
      {
        db: unused,
        gateway: unused,
        notifier: unused,
        now: () => new Date(),
        config: { paymentJobsIntervalMs: 60_000 },
        bot: { start: async () => {}, stop: async () => {} },
        broadcasts: idle,
        ownerAlerts: idle,
      },
      { database: { db: unused, kind: "pglite" }, locks: createLocks({ databaseUrl: undefined }), log: silentLog },
    );
    expect(jobs.map(({ name, intervalMs, lock, afterListen }) => ({ name, intervalMs, lock, afterListen }))).toEqual([
      { name: "payments", intervalMs: 60_000, lock: "paymentJobs", afterListen: undefined },
      { name: "database upkeep", intervalMs: 60 * 60_000, lock: "upkeep", afterListen: undefined },
      { name: "broadcast sender", intervalMs: undefined, lock: undefined, afterListen: undefined },
      { name: "owner-alert sender", intervalMs: undefined, lock: undefined, afterListen: undefined },
      { name: "telegram bot", intervalMs: undefined, lock: "telegramPolling", afterListen: true },
    ]);
  });

  it("has no sender job for a sender the services do not hold", () => {
    expect(senderJobs({})).toEqual([]);
  });

  it("starts each job at its moment, in order, and stops the started ones in reverse order", async () => {
    const events: string[] = [];
    const runner = createJobRunner([recordingJob("a", events), recordingJob("bot", events, true), recordingJob("b", events)]);
    await runner.start("beforeListen");
    expect(events).toEqual(["start a", "start b"]);
    await runner.start("afterListen");
    await runner.stop();
    expect(events).toEqual(["start a", "start b", "start bot", "stop bot", "stop b", "stop a"]);
  });

  it("starts nothing once stopped (a shutdown before the server listened)", async () => {
    const events: string[] = [];
    const runner = createJobRunner([recordingJob("a", events), recordingJob("bot", events, true)]);
    await runner.start("beforeListen");
    await runner.stop();
    await runner.start("afterListen");
    expect(events).toEqual(["start a", "stop a"]);
  });
});
