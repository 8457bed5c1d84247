// One drawing per ruleset; anything else is shown as its view's JSON (as text).
import { el } from "../dom.js";
import * as cashnguns from "./cashnguns.js";
import * as hitchiker from "./hitchiker.js";
import * as monopoly from "./monopoly.js";
import * as whipcash from "./whipcash.js";

const BOARDS = { "monopoly-cars2": monopoly, "cash-n-guns": cashnguns, whipcash, hitchiker };

const generic = {
  spaceName: () => (index) => `space ${index}`,
  draw: (view) => el("pre", { className: "raw-view" }, JSON.stringify(view, null, 2)),
};

export function boardFor(rulesetId) {
  return BOARDS[rulesetId] || generic;
}

/** Draws, falling back to the raw view if a drawing fails on an unexpected view. */
export function drawBoard(rulesetId, view, ctx, data) {
  try {
    return boardFor(rulesetId).draw(view, ctx, data);
  } catch (error) {
    console.error(error);
    return generic.draw(view);
  }
}
