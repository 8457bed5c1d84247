// The app key panel (templates/key_panel.html): shows the key this browser sends, and keeps another.
import { apiKey, setApiKey } from "./api.js";
import { $ } from "./dom.js";

/** Fills the panel and reloads the page with the key entered (every request of the page then sends it). */
export function mountKeyPanel() {
  $("api-key").value = apiKey() || "";
  $("key-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    setApiKey($("api-key").value.trim());
    location.reload();
  });
}

/** Opens the panel when an answer says the page's key lacks a scope (a publishable key on a secret key's page). */
export function askForKey(error) {
  if (error && error.body && error.body.reason === "scope_missing") {
    $("key-panel").open = true;
    $("api-key").focus();
  }
}
