/**
 * kubectl's layout of a PodDisruptionBudget (describePodDisruptionBudgetV1): its minimum available or maximum
 * unavailable, selector, the disruption status, then its Events.
 */
import { writeNameAndNamespace, type Any, type Describer } from './describe-context.js';
import { writeEvents } from './describe-writer.js';
import { formatLabelSelector, intOrString } from './go-format.js';

/** kubectl's PodDisruptionBudget layout (no labels or annotations). */
export const podDisruptionBudgetDescriber: Describer = async (w, ctx) => {
  const pdb = ctx.obj as Any;
  const spec: Any = pdb.spec ?? {};
  const st: Any = pdb.status ?? {};
  writeNameAndNamespace(w, ctx.obj);
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) w.write(0, `Min available:\t${intOrString(spec.minAvailable)}\n`);
  else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) w.write(0, `Max unavailable:\t${intOrString(spec.maxUnavailable)}\n`);
  w.write(0, `Selector:\t${spec.selector ? formatLabelSelector(spec.selector) : '<unset>'}\n`);
  w.write(0, 'Status:\n');
  w.write(2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
  w.write(2, `Current:\t${st.currentHealthy ?? 0}\n`);
  w.write(2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
  w.write(2, `Total:\t${st.expectedPods ?? 0}\n`);
  writeEvents(w, await ctx.events());
};
