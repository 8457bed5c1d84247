// What the tournament and experiment forms share: a ruleset to choose, a body to POST with the app's
// key (the secret one: the key panel opens on a 403), and the page of what was created.
import { get, post } from "./api.js";
import { $, el, showProblem } from "./dom.js";
import { askForKey, mountKeyPanel } from "./key_panel.js";

/** The number in input `id`, or null when it is left empty. */
export const numberOrNull = (id) => ($(id).value.trim() ? Number($(id).value) : null);

/**
 * Mounts a create form: `form` and `select` are element ids; `chooseRuleset(ruleset)` redraws what depends
 * on the ruleset; `build(ruleset)` gives the body (it may throw a message); `path` is where to POST it;
 * `pageOf(made)` the page to go to then.
 */
export async function mountCreateForm({ form, select, chooseRuleset, build, path, pageOf }) {
  mountKeyPanel();
  const rulesets = (await get("/v1/rulesets")).rulesets;
  const current = () => rulesets.find((ruleset) => ruleset.id === $(select).value);
  for (const ruleset of rulesets) $(select).append(el("option", { value: ruleset.id }, ruleset.title));
  $(select).addEventListener("change", () => chooseRuleset(current()).catch(showProblem));
  $(form).addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    showProblem(null);
    try {
      const made = await post(path, build(current()));
      location.assign(pageOf(made));
    } catch (error) {
      showProblem(error);
      askForKey(error);
    }
  });
  await chooseRuleset(current());
  document.body.dataset.ready = "true";
}
