// The public face of shop/insights/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { exportFileName, exportOrdersCsv } from "./orders-export";
export { getRevenueReport } from "./revenue";
export { getDashboardStats, isLowStock, isRevenue } from "./stats";
export { getSetupChecklist } from "./setup-checklist";
