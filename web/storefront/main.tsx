// First of all: zod's settings must be in place before any schema of contract/ is built (web/zod-setup.ts).
import "../zod-setup";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, OutsideTelegram } from "./app";
import { readLaunch, startTelegram } from "./telegram";
import { firstLanguage } from "./texts";
import "./storefront.css";

// The storefront Mini App (issue 27), served at /shop/. Opened from the bot, Telegram passes the
// launch parameters in the URL's hash; opened any other way there are none, and the page says where
// the shop is opened from.
const launch = readLaunch();
if (launch) startTelegram(launch);
// Its words, until the catalogue names the customer's language: their Telegram app's, else the browser's.
const language = firstLanguage(launch?.languageCode, navigator.languages?.length ? navigator.languages : [navigator.language]);

createRoot(document.getElementById("root")!).render(
  <StrictMode>{launch ? <App launch={launch} language={language} /> : <OutsideTelegram language={language} />}</StrictMode>,
);
