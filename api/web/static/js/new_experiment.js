// The experiment form: POST /v1/experiments with the app's secret key, then the experiment's page.
import { get, post } from "./api.js";
import { $, clear, el, showProblem, words } from "./dom.js";
import { askForKey, mountKeyPanel } from "./key_panel.js";
import { drawOptions, readOptions } from "./options.js";

const rulesets = [];
const current = () => rulesets.find((ruleset) => ruleset.id === $("exp-ruleset").value);
const numberOrNull = (id) => ($(id).value.trim() ? Number($(id).value) : null);

/** A typed value: a number or JSON where it reads as one, else the text. */
function value(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function chooseRuleset() {
  const details = await get(`/v1/rulesets/${encodeURIComponent(current().id)}`);
  drawOptions($("exp-options"), details.options_schema);
  const sweep = clear($("exp-sweep-option"));
  for (const name of Object.keys(details.options_schema.properties || {})) {
    sweep.append(el("option", { value: name }, words(name)));
  }
}

function comparison() {
  if ($("exp-compare-sweep").checked) {
    const values = $("exp-sweep-values").value.split(",").map((text) => text.trim()).filter(Boolean).map(value);
    return values.length ? { sweep: { [$("exp-sweep-option").value]: values } } : {};
  }
  const text = $("exp-variants").value.trim();
  if (!text) return {};
  try {
    return { variants: JSON.parse(text) };
  } catch {
    throw new Error("Variants: not valid JSON");
  }
}

async function create(submitted) {
  submitted.preventDefault();
  showProblem(null);
  try {
    const body = {
      ruleset: current().id, options: readOptions($("exp-options")),
      bots: $("exp-bots").value.split(",").map((bot) => bot.trim()).filter(Boolean), ...comparison(),
    };
    const players = numberOrNull("exp-players");
    if (players !== null) body.players = players;
    if ($("exp-length-games").checked) body.games = Number($("exp-games").value);
    else body.stop = { win_rate_within: Number($("exp-within").value), max_games: Number($("exp-max-games").value) };
    const seed = numberOrNull("exp-seed");
    if (seed !== null) body.seed = seed;
    const made = await post("/v1/experiments", body);
    location.assign(`/experiments/${encodeURIComponent(made.id)}`);
  } catch (error) {
    showProblem(error);
    askForKey(error);
  }
}

async function start() {
  mountKeyPanel();
  rulesets.push(...(await get("/v1/rulesets")).rulesets);
  const select = $("exp-ruleset");
  for (const ruleset of rulesets) select.append(el("option", { value: ruleset.id }, ruleset.title));
  select.addEventListener("change", () => chooseRuleset().catch(showProblem));
  $("exp-form").addEventListener("submit", create);
  await chooseRuleset();
  document.body.dataset.ready = "true";
}

start().catch(showProblem);
