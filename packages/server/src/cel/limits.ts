/**
 * The cost limits of expressions and the words kube-apiserver 1.27 uses when one is passed (document 3 §Limits,
 * §Errors): k8s.io/apiserver/pkg/apis/cel's constants, the apiextensions validation limits on a CRD's rules, and the
 * cost model's unit factors from cel-go.
 */

/** The cost limit of one evaluation of one expression (apiserver cel config PerCallLimit, about 0.1 s). */
export const perCallLimit = 1_000_000;

/**
 * The runtime cost budget of all expressions of one custom resource validation or one policy binding
 * (RuntimeCELCostBudget, about 1 s).
 */
export const runtimeCelCostBudget = 10_000_000;

/** The runtime cost budget of a webhook's or binding's `matchConditions` per object (RuntimeCELCostBudgetMatchConditions). */
export const runtimeCelCostBudgetMatchConditions = 2_500_000;

/** The largest estimated cost of one rule a CRD may carry (apiextensions StaticEstimatedCostLimit). */
export const staticEstimatedCostLimit = 10_000_000;

/** The largest estimated cost of all rules of one CRD schema (apiextensions StaticEstimatedCRDCostLimit). */
export const staticEstimatedCrdCostLimit = 100_000_000;

/** The request size the estimator assumes for unbounded strings, lists and maps (MaxRequestSizeBytes, 3 MiB). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

/** cel-go's cost of reading a variable or selecting a field. */
export const selectAndIdentCost = 1;
/** cel-go's cost of a constant. */
export const constCost = 0;
/** cel-go's base cost of making a list (ListCreateBaseCost): the accumulator lists of `map` and `filter`. */
export const listCreateBaseCost = 10;
/**
 * Base cost of a list literal: document 3 §Limits gives 40, where cel-go charges its ListCreateBaseCost (10); the
 * document is the contract, so literals cost 40 in the estimate and at run time alike.
 */
export const listLiteralBaseCost = 40;
/** cel-go's base cost of making a map (MapCreateBaseCost). */
export const mapCreateBaseCost = 30;
/** cel-go's base cost of making a struct (StructCreateBaseCost). */
export const structCreateBaseCost = 40;
/** cel-go's factor from a string's length to the cost of walking it once (StringTraversalCostFactor). */
export const stringTraversalCostFactor = 0.1;
/** cel-go's factor from a pattern's length to the cost of applying it to one character (RegexStringLengthCostFactor). */
export const regexStringLengthCostFactor = 0.25;
/** The fixed cost of one authorization check: two fit into one expression's limit (kube's authz library cost). */
export const authzCheckCost = 350_000;

/** cel-go's error when one evaluation goes over its cost limit. */
export const costLimitExceededMessage = 'operation cancelled: actual cost limit exceeded';

/** The error once the expressions of one object or binding used up their shared runtime budget. */
export const outOfBudgetMessage = 'validation failed due to running out of cost budget, no further validation rules will be run';

/**
 * How kube-apiserver words an estimated cost over a limit (apiextensions getCostErrorMessage): the factor by which
 * the limit is exceeded, `more than 100x` past two orders of magnitude, six decimals below 1.5x, one above.
 */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${factor.toFixed(6)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The message for one rule whose estimated cost is over {@link staticEstimatedCostLimit}. */
export function ruleCostErrorMessage(cost: number): string {
  return costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit);
}

/** The message for a CRD schema whose rules together are estimated over {@link staticEstimatedCrdCostLimit}. */
export function crdCostErrorMessage(totalCost: number): string {
  return costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', totalCost, staticEstimatedCrdCostLimit);
}

/** The message beside each of the most expensive rules of a CRD whose total is over the limit. */
export const crdCostContributorMessage = 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema';

/**
 * The worst-case number of values of at least `minSerializedSize` bytes one request can hold (apiextensions
 * maxCardinality: one separator between values assumed). A rule under unbounded lists or maps runs this many times.
 */
export function maxCardinality(minSerializedSize: number): number {
  return Math.floor(maxRequestSizeBytes / (minSerializedSize + 1));
}

/** A product of costs that saturates instead of overflowing 64 bits (multiplyWithOverflowGuard). */
export function multiplyCost(a: number, b: number): number {
  const product = a * b;
  return product > maxCost ? maxCost : product;
}

/** The largest cost figure (uint64's maximum as cel-go's estimates saturate at it). */
export const maxCost = 18446744073709551615;
