// The public face of shop/simulator/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { simulatePayment } from "./simulate-payment";
export { addSimulatorMessage, deleteSimulatorMessage, editSimulatorMessage, getSimulatorMessage, isTestCustomer, listSimulatorMessages, pendingSimulatedPayment, recordMessageToTestCustomer, resetTestCustomer, simulationGateway, TEST_CUSTOMER_ID, TEST_CUSTOMER_NAME, TEST_CUSTOMER_SQL } from "./simulator";
