import {
  SimulatorPaymentInputSchema,
  SimulatorPressInputSchema,
  SimulatorStateSchema,
  SimulatorTextInputSchema,
  type SimulatorEvent,
  type SimulatorState,
} from "../../../contract";
import { simulatePayment, listSimulatorMessages, pendingSimulatedPayment, TEST_CUSTOMER_ID, TEST_CUSTOMER_NAME } from "../../shop/simulator";
import { resetSimulator, simulateTurn } from "../../telegram/simulator";
import type { AppDeps, Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023-chat-simulator.md): the "bot"
// permission (contract/team.ts). The bot's turn is handled before the answer (as the JSON
// tester's is), so the answer carries what the bot did.

async function stateOf(deps: AppDeps, events: SimulatorEvent[]): Promise<SimulatorState> {
  const [messages, pending] = await Promise.all([listSimulatorMessages(deps.db), pendingSimulatedPayment(deps.db)]);
  return { customer: { telegramUserId: TEST_CUSTOMER_ID, name: TEST_CUSTOMER_NAME }, messages, events, pendingPayment: pending };
}

const STATE = { 200: SimulatorStateSchema, ...ERROR_ANSWERS };

export const simulatorRoutes: Routes = (app, deps) => {
  app.get(
    "/api/bot/simulator",
    { ...may("bot"), schema: { summary: "The chat simulator: the test customer's chat as it stands, and their order waiting for a simulated payment", response: STATE } },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      return stateOf(deps, []);
    },
  );

  app.post(
    "/api/bot/simulator/messages",
    {
      ...may("bot"),
      schema: {
        summary: "Send a text as the test customer: the real bot answers into the simulator's chat, never to Telegram",
        body: SimulatorTextInputSchema,
        response: STATE,
      },
    },
    async (request) => {
      const events = await simulateTurn(deps, { kind: "text", text: request.body.text }, { log: request.log, botInfo: deps.bot?.botInfo() });
      return stateOf(deps, events);
    },
  );

  app.post(
    "/api/bot/simulator/presses",
    {
      ...may("bot"),
      schema: {
        summary: "Press an inline button of one of the bot's messages in the simulator, as the test customer",
        body: SimulatorPressInputSchema,
        response: STATE,
      },
    },
    async (request) => {
      const { messageId, data } = request.body;
      const events = await simulateTurn(deps, { kind: "press", messageId, data }, { log: request.log, botInfo: deps.bot?.botInfo() });
      return stateOf(deps, events);
    },
  );

  app.post(
    "/api/bot/simulator/payments",
    {
      ...may("bot"),
      schema: {
        summary: "Mark a test order paid by simulation, through the path real payment confirmations take; refused for any real order",
        body: SimulatorPaymentInputSchema,
        response: STATE,
      },
    },
    async (request) => {
      await simulatePayment({ db: deps.db, notifier: deps.notifier, now: deps.now, logger: request.log }, request.body.orderId);
      return stateOf(deps, []);
    },
  );

  app.post(
    "/api/bot/simulator/reset",
    {
      ...may("bot"),
      schema: {
        summary: "Reset the test customer: their chat, conversation, cart, support messages and test orders go (stock back on sale)",
        response: STATE,
      },
    },
    async () => {
      await resetSimulator(deps);
      return stateOf(deps, []);
    },
  );
};
