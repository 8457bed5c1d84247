// The tournament form: POST /v1/tournaments with the app's secret key, then the tournament's page.
import { get, post } from "./api.js";
import { $, el, showProblem } from "./dom.js";
import { askForKey, mountKeyPanel } from "./key_panel.js";
import { drawOptions, readOptions } from "./options.js";

const rulesets = [];
const current = () => rulesets.find((ruleset) => ruleset.id === $("tourney-ruleset").value);
const numberOrNull = (id) => ($(id).value.trim() ? Number($(id).value) : null);

async function chooseRuleset() {
  const ruleset = current();
  const size = $("tourney-table-size");
  size.min = ruleset.min_players;
  size.max = ruleset.max_players;
  size.value = Math.min(ruleset.max_players, Math.max(ruleset.min_players, Number(size.value) || 2));
  const details = await get(`/v1/rulesets/${encodeURIComponent(ruleset.id)}`);
  drawOptions($("tourney-options"), details.options_schema);
}

async function create(submitted) {
  submitted.preventDefault();
  showProblem(null);
  try {
    const body = {
      ruleset: current().id, format: $("tourney-format").value, table_size: Number($("tourney-table-size").value),
      entrants: $("tourney-entrants").value.split("\n").map((line) => line.trim()).filter(Boolean),
      rated: $("tourney-rated").checked, options: readOptions($("tourney-options")),
    };
    const rounds = numberOrNull("tourney-rounds");
    if (rounds !== null) body.rounds = rounds;
    const seed = numberOrNull("tourney-seed");
    if (seed !== null) body.seed = seed;
    const made = await post("/v1/tournaments", body);
    location.assign(`/tournament/${encodeURIComponent(made.id)}`);
  } catch (error) {
    showProblem(error);
    askForKey(error);
  }
}

async function start() {
  mountKeyPanel();
  rulesets.push(...(await get("/v1/rulesets")).rulesets);
  const select = $("tourney-ruleset");
  for (const ruleset of rulesets) select.append(el("option", { value: ruleset.id }, ruleset.title));
  select.addEventListener("change", () => chooseRuleset().catch(showProblem));
  $("tourney-form").addEventListener("submit", create);
  await chooseRuleset();
  document.body.dataset.ready = "true";
}

start().catch(showProblem);
